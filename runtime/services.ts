// Process-wide services shared by runs: clock, durable store, limits. Tests build their own.
import type { RunCancel } from './run-cancel.ts';
import type { Store } from './store-types.ts';
import type { Logger } from 'pino';
import type { InterfacePlan, Plan } from './plan.ts';
import type { RequestData, Trigger } from './run-state.ts';
import type { RunTracer } from './tracing.ts';
import type { Dispatcher } from 'undici';
import type { FailureInfo } from './run-state.ts';
import type { Scope } from './scope.ts';

export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface Services {
  clock: Clock;
  /** Runs, state keys, only_new sets, ticks and captures (in memory unless SERVICE__DATABASE_URL). */
  store?: Store;
  /** SERVICE__MAX_DELAY_SECS in ms: longer waits suspend the run (durable store) or are refused. */
  maxDelayMs?: number;
  /** SERVICE__RUN_DEADLINE_SECS in ms: no retry attempt starts (or waits) past a run's start + this. */
  runDeadlineMs?: number;
  /** SERVICE__LOOKUP_MAX_ITEMS (1000): the most items a lookup runs (runtime/exec/lookup.ts). */
  lookupMaxItems?: number;
  /** Operational log (runtime/log); absent = nothing is logged (tests, `pipewright run`). */
  log?: Logger;
  /** Per-run copies only: aborted when the HTTP client waiting for the run goes away. */
  cancel?: RunCancel;
  /** Aborted when the server's shutdown grace ends: a run still under way is parked or stopped (runtime/exec/shutdown.ts). */
  shutdown?: AbortSignal;
  /** The served plans by config name: actions that run other interfaces (agent tools) find them here. */
  plans?: ReadonlyMap<string, Plan>;
  /** Runs another interface through the executor (agent tools); set with the plans. */
  runInterface?: RunInterface;
  /** WebSocket channels (ws_publish): this node's sockets and, through the bus, every other node's. */
  channels?: { publish(channels: string[], data: unknown, retain: boolean): Promise<void> };
  /** Prometheus metrics (expose_metrics): built-in run metrics and emit_metric. */
  metrics?: { emit(e: { name: string; type: 'counter' | 'gauge' | 'histogram'; value: number; labels: Record<string, string>; help?: string }): string | undefined };
  /** The service's MQTT connection (mqtt_publish). */
  mqtt?: { publish(topics: string[], payload: string, qos: 0 | 1 | 2, retain: boolean): Promise<void> };
  /** OpenTelemetry spans of runs and attempts (OTEL_EXPORTER_OTLP_ENDPOINT); absent: tracing off. */
  tracer?: RunTracer;
  /** `pipewright test` only: outbound HTTP and actions answered by a case's stand-ins (runtime/testing/stand-ins.ts). */
  standIns?: StandIns;
}

/** `pipewright test` only: what answers a case's outbound calls instead of the network. The hooks are
 *  described in runtime/testing/stand-ins.ts, which implements them; set by the test harness alone. */
export interface StandIns {
  /** Where every outbound HTTP request goes (the case's recordings; nothing connects). */
  readonly dispatcher: Dispatcher;
  /** Recording (`--record`): the HTTP action's own pool (its proxy, TLS and timeouts) wrapped to record
   *  each exchange; present, it is used instead of `dispatcher`, which stays for other clients. */
  around?(real: Dispatcher): Dispatcher;
  /** Called as each attempt of each action starts: the outcome to use instead of the kind's work, or
   *  undefined to run the kind. `real` runs the kind itself (a recorder calls it and keeps what it
   *  answers). (An ActionOutcome, runtime/actions/types.ts, which this floor file cannot name.) */
  attempt(action: { readonly name: string; readonly kind: string }, config: unknown, ctx: { readonly scope: Scope; readonly executionId: string }, real: () => Promise<StandInOutcome>): Promise<StandInOutcome> | undefined;
}

export interface StandInOutcome { ok: boolean; data?: unknown; status?: number; headers?: Record<string, string>; error?: string; failure?: FailureInfo }

/** How an action runs another interface: the executor, handed down by whoever serves the plans. */
export type RunInterface = (plan: Plan, iface: InterfacePlan, request: RequestData, trigger: Trigger) => Promise<{ status: number; body: unknown; failed: boolean }>;

/** Makes the served plans, and the executor that runs them, reachable from runs (set once). */
export function linkPlans(s: Services, plans: readonly Plan[], run: RunInterface): Services {
  s.plans ??= new Map(plans.map((p) => [p.name, p]));
  s.runInterface ??= run;
  return s;
}

/** The services of one run that its client can cancel. Every field written out, not `{ ...s, cancel }`:
 *  V8 (node 20) gives a spread copy extended by a field a fresh map on every call — about 1.5 µs
 *  each, and every later read of a services field in the run then misses its inline cache. One
 *  literal is one shape for all runs (14 ns). The type lists every field, so a new one cannot be
 *  left out. */
export function withCancel(s: Services, cancel: RunCancel): Services {
  const all: { [K in keyof Required<Services>]: Services[K] } = {
    clock: s.clock, store: s.store, maxDelayMs: s.maxDelayMs, runDeadlineMs: s.runDeadlineMs, lookupMaxItems: s.lookupMaxItems, log: s.log, cancel,
    shutdown: s.shutdown, plans: s.plans, runInterface: s.runInterface, channels: s.channels, metrics: s.metrics, mqtt: s.mqtt,
    tracer: s.tracer, standIns: s.standIns,
  };
  return all;
}

export const DEFAULT_RUN_DEADLINE_MS = 86_400_000;

/** Node's largest timer (2^31 − 1 ms); longer ones fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

export const DEFAULT_MAX_DELAY_MS = 300_000;

export const maxDelayOf = (s: Services): number => s.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const t = setTimeout(resolve, Math.min(Math.max(ms, 0), MAX_TIMER_MS));
      signal?.addEventListener('abort', () => { clearTimeout(t); reject(signal.reason); }, { once: true });
    }),
};
