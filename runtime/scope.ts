// What leaves read. Built from the run state; leaves never see anything else, so a resumed run
// on another node computes the same values.
import type { StepRecord } from './run-state.ts';

export interface Scope {
  body: unknown;
  rawBody: string;
  params: Record<string, string>;
  headers: Record<string, string>;
  steps: Record<string, StepRecord>;
  /** Values of `a|state::KEY|` fetched before the action ran. */
  state: Record<string, unknown>;
  /** Secrets, variables and environment (never logged, never echoed in errors). */
  env: Environment;
}

export interface Environment {
  secret(name: string): string | undefined;
  variable(name: string): string | undefined;
  env(name: string): string | undefined;
  uuid(): string;
  /** Every secret and variable value configured, for redaction of captured runs. */
  sensitiveValues?(): string[];
}
