// The config's error handler (`on_error`): after a failed run's response is decided, the named
// interface runs with {config, interface, http_code, run_uuid, at, data}. It is not awaited, so it
// cannot change the response; its own failure is logged and dropped; at most max_per_minute start
// per config per minute (the rest are counted and logged).
import type { Plan } from '../plan.ts';
import type { Environment } from '../scope.ts';
import type { Services } from '../services.ts';
import { executeInterface, type RunResult } from './run.ts';

export interface ErrorHandlerLog {
  warn(msg: string): void;
}

export class ErrorHandlers {
  private windows = new Map<string, { start: number; count: number }>();
  /** Handler runs in flight (tests and shutdown wait on them). */
  readonly running = new Set<Promise<unknown>>();
  skipped = 0;

  constructor(private env: Environment, private services: Services, private log: ErrorHandlerLog) {}

  afterRun(plan: Plan, i: { name: string; silence?: boolean }, result: RunResult): void {
    const h = plan.onError;
    const status = result.response.status;
    const iface = i.name;
    // `silence: true` mutes the handler (the alert), never the run's logs or record.
    // A run an operator cancelled while it waited is told as a failure (its 499 answer).
    const ended = result.state.status;
    if (!h || (ended !== 'failed' && ended !== 'cancelled') || iface === h.interface || i.silence) return;
    if (h.status ? !h.status.includes(status) : status >= 200 && status < 300) return;
    // The load refuses an on_error.interface that names no interface of the config (lint-refs).
    const target = plan.interfaces.find((i) => i.name === h.interface)!;
    if (!this.admit(plan.name, h.maxPerMinute)) {
      this.skipped++;
      this.log.warn(`on_error: rate limit (${h.maxPerMinute}/min) reached for ${plan.name}; handler skipped for run ${result.state.id}`);
      return;
    }
    const body = { config: plan.name, interface: iface, http_code: status, run_uuid: result.state.id, at: new Date(this.services.clock.now()).toISOString(), data: result.response.body };
    const raw = JSON.stringify(body);
    // Tracing on: the handler's run is a child of the failed run's span, in its trace.
    const headers = { 'content-type': 'application/json', ...result.state.trace };
    const run = executeInterface(plan, target, { method: 'POST', path: target.route, params: {}, headers, body, rawBody: raw }, { trigger: 'http', env: this.env, services: this.services })
      .then((r) => { if (r.state.status === 'failed') this.log.warn(`on_error: handler ${h.interface} failed with ${r.response.status}`); })
      .catch((e: unknown) => this.log.warn(`on_error: handler ${h.interface} crashed: ${(e as Error).message}`))
      .finally(() => this.running.delete(run));
    this.running.add(run);
  }

  /** A fixed one-minute window per config; max_per_minute 0 admits none. */
  private admit(config: string, max: number): boolean {
    const now = this.services.clock.now();
    let w = this.windows.get(config);
    if (!w || now - w.start >= 60_000) this.windows.set(config, (w = { start: now, count: 0 }));
    if (w.count >= max) return false;
    w.count++;
    return true;
  }
}
