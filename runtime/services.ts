// Process-wide services shared by runs: clock, durable store, limits. Tests build their own.
import type { Store } from './store/types.ts';
import type { Plan } from './plan.ts';
import type { Channels } from './realtime/channels.ts';
import type { Metrics } from './metrics/metrics.ts';

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
  /** The served plans by config name: actions that run other interfaces (agent tools) find them here. */
  plans?: ReadonlyMap<string, Plan>;
  /** WebSocket channels (ws_publish): this node's sockets and, through the bus, every other node's. */
  channels?: Channels;
  /** Prometheus metrics (expose_metrics): built-in run metrics and emit_metric. */
  metrics?: Metrics;
  /** The service's MQTT connection (mqtt_publish). */
  mqtt?: { publish(topics: string[], payload: string, qos: 0 | 1 | 2, retain: boolean): Promise<void> };
}

/** Makes the served plans reachable from runs (set once where the plans are served). */
export function linkPlans(s: Services, plans: readonly Plan[]): Services {
  s.plans ??= new Map(plans.map((p) => [p.name, p]));
  return s;
}

export const DEFAULT_MAX_DELAY_MS = 300_000;

export const maxDelayOf = (s: Services): number => s.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const t = setTimeout(resolve, ms);
      signal?.addEventListener('abort', () => { clearTimeout(t); reject(signal.reason); }, { once: true });
    }),
};
