// Everything a run has done, as plain JSON: persisted and resumed at any action, on any node.
import type { RefusalStatus } from './refused.ts';

export type Trigger = 'http' | 'schedule' | 'mqtt' | 'ws' | 'mcp' | 'agent' | 'cli' | 'test';

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
  /** Milliseconds the action took (its attempts and the waits between them; since its resumption
   *  for one that suspended). Absent for an action that did not run (skipped by a condition). */
  ms?: number;
  /** The action's data after post_transforms (what `a|Action|` reads). */
  data?: unknown;
  /** HTTP-style facts of the action (`a|Action::status|` and friends). */
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  error?: string;
  /** Skipped because it had nothing to do (only_new with skip_when_empty): its dependents skip too. */
  skippedEmpty?: boolean;
  /** The assert's verdict: it never changes `outcome`. */
  assert?: { ok: boolean; message?: string; failures: string[] };
}

/** A failure that produced no usable response: it never reached the server (`connect`), took too
 *  long (`timeout`), or broke off otherwise (`other`). `retry.on` names the first two; the runs API
 *  (`transport`) and a test case's stand-in (`transport:`) all three. */
export const TRANSPORT_CLASSES = ['timeout', 'connect', 'other'] as const;
export type TransportClass = typeof TRANSPORT_CLASSES[number];
/** A value read from a record (stored data, another server's JSON): a class this runtime has, or not. */
export const isTransportClass = (v: unknown): v is TransportClass => (TRANSPORT_CLASSES as readonly unknown[]).includes(v);

/** Why an action failed, for retry classification and the response's status. A refusal made while
 *  the attempt's settings or input were filled in (`settings`: before its kind ran, nothing sent) is
 *  told from one its kind made: a test case replaying the run refuses the first by itself, and stands
 *  in only for the second (`pipewright test --from-run`). */
export type FailureInfo =
  | { kind: 'status'; status: number }
  | { kind: 'transport'; cls: TransportClass }
  | { kind: 'other' }
  | { kind: 'refused'; status: RefusalStatus; settings?: true };

/** Bookkeeping of an ordered list of actions (an interface's, or one lookup item's). */
export interface SeqState {
  /** Names in the order they finished (skipped ones too). */
  order: string[];
  /** Failed actions no run_when_failed branch took care of. */
  unhandled: string[];
  failures: Record<string, FailureInfo | undefined>;
  /** A depends_on that was not met and asked for this status. */
  forced?: { action: string; status: number };
}

/** Where a suspended run waits: a time (delay, retry wait, callback timeout) and/or a token. */
export interface Wake {
  at?: string;
  token?: string;
  reason: 'delay' | 'retry' | 'callback' | 'shutdown';
  /** The action the run waits in. */
  action: string;
}

export interface RunState {
  id: string;
  config: string;
  iface: string;
  trigger: Trigger;
  startedAt: string;
  /** After this instant (ISO) no retry attempt starts: a bound on work that travels with the run. */
  deadline?: string;
  request: RequestData;
  steps: Record<string, StepRecord>;
  seq: SeqState;
  /** Index of the next action to run (of the suspended one while suspended). */
  cursor: number;
  /** `cancelled`: an operator ended it while it was suspended (POST /_ap/runs/<id>/cancel). */
  status: 'running' | 'suspended' | 'succeeded' | 'failed' | 'cancelled';
  wake?: Wake;
  /** The callback that claimed this run's token, stored with the claim: a node taking the run over
   *  (its resuming node died before the next checkpoint) continues with it instead of timing out. */
  callback?: { body: unknown };
  /** A retry spread over suspensions: the attempts spent so far and the execution id they share. */
  retry?: { action: string; attempts: number; executionId: string };
  /** A scheduled tick's run: which schedule, the tick (epoch ms) and the attempt, so that whichever
   *  node finishes it (after a takeover or a suspension) retries a failure by the schedule's rules. */
  tick?: { schedule: string; at: number; attempt: number };
  /** Stored with its tick's claim, before anything ran: a node taking it over starts it (params first). */
  unstarted?: true;
  /** Takeovers (its node died running it) at the action `cursor`: bounded by SERVICE__MAX_TAKEOVERS
   *  (runtime/durable/takeovers.ts). */
  takeovers?: { cursor: number; count: number };
  /** The W3C trace context of the run's latest span (tracing on: runtime/tracing.ts): a resumed run,
   *  on any node, continues the same trace from it. */
  trace?: { traceparent: string; tracestate?: string };
  /** The response the run ended with (read by GET /_ap/runs/<id> after a suspension). */
  response?: { status: number; headers: Record<string, string>; body: unknown };
}
