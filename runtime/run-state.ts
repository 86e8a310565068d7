// Everything a run has done, as plain JSON: persisted and resumed at any action, on any node.

export type Trigger = 'http' | 'schedule' | 'mqtt' | 'ws' | 'mcp' | 'cli' | 'resume' | 'test';

export interface RequestData {
  method: string;
  path: string;
  params: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
  rawBody: string;
}

export interface StepRecord {
  outcome: 'succeeded' | 'failed' | 'skipped';
  attempts: number;
  /** The action's data after post_transforms (what `a|Action|` reads). */
  data?: unknown;
  /** HTTP-style facts of the action (`a|Action::status|` and friends). */
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  error?: string;
  /** The assert's verdict: it never changes `outcome`. */
  assert?: { ok: boolean; message?: string; failures: string[] };
}

export interface RunState {
  id: string;
  config: string;
  iface: string;
  trigger: Trigger;
  startedAt: string;
  request: RequestData;
  steps: Record<string, StepRecord>;
  /** Names of the actions in the order they finished (the response and fallbacks read it). */
  order: string[];
  cursor: number;
  status: 'running' | 'suspended' | 'succeeded' | 'failed';
  wake?: { at?: string; token?: string; reason: 'delay' | 'retry' | 'callback' };
}
