// The contract of an action kind: one file per kind under runtime/actions/.
import type { TraceHeaders } from '../tracing.ts';
import type { FailureInfo, RunState } from '../run-state.ts';
import type { Scope } from '../scope.ts';
import type { Services } from '../services.ts';
import type { RunCancel } from '../run-cancel.ts';

export interface ActionContext {
  /** Aborted when the action's timeout passes or the run is cancelled; absent when neither can
   *  happen (a signal per run costs more than the request it guards). */
  signal?: AbortSignal;
  /** The run's cancellation, when it is all `signal` follows (no timeout): listening here makes no
   *  AbortSignal (runtime/run-cancel.ts). */
  cancel?: RunCancel;
  run: RunState;
  scope: Scope;
  services: Services;
  /** 1-based attempt number of this execution. */
  attempt: number;
  /** The resolved `input` (undefined when the action has none). */
  input: unknown;
  /** Stable per action execution, the same on every retry attempt (idempotency keys). */
  executionId: string;
  /** W3C trace context of the attempt's span, when tracing is on: sent on outbound HTTP calls. */
  trace?: TraceHeaders;
}

/** Why an action failed, for retry classification. */
export type Failure = FailureInfo;

/** Asks the executor to park the run (only returned when the store is durable). */
export interface Suspend {
  /** Epoch ms to resume at (a delay's end, a callback's timeout). */
  at?: number;
  token?: string;
  /** 'shutdown': the executor parks a run left when the server's shutdown grace ended. */
  reason: 'delay' | 'callback' | 'retry' | 'shutdown';
}

export interface ActionOutcome {
  ok: boolean;
  /** The action's data before post_transforms (for HTTP: the decoded response body). */
  data?: unknown;
  status?: number;
  headers?: Record<string, string>;
  error?: string;
  failure?: Failure;
  /** A Retry-After the upstream asked for, in milliseconds. */
  retryAfterMs?: number;
  /** Park the run here (delay, wait_for_callback). */
  suspend?: Suspend;
  /** Nothing to do (only_new found nothing new): the action and its dependents are skipped. */
  skip?: boolean;
}

/** `config` is the kind's settings after interpolation (plain JSON). */
export type ActionKind = (config: any, ctx: ActionContext) => Promise<ActionOutcome>;
