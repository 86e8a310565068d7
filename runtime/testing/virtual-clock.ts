// The clock of a test case: time passes only when the run waits. A delay, a retry's backoff or a
// callback timeout moves it forward at once, so a one-hour delay finishes in a turn of the event loop.
import type { Clock } from '../services.ts';

export class VirtualClock implements Clock {
  constructor(private t = Date.now()) {}

  now(): number { return this.t; }

  /** A wait ends at its start + ms, after a turn of the event loop. Waits that overlap (a lookup's
   *  items) start at the same time, so the clock moves to the latest end, not to their sum. */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const end = this.t + Math.max(ms, 0);
    return new Promise((resolve) => setImmediate(() => { this.advanceTo(end); resolve(); }));
  }

  /** Moves to `at` (a parked run's wake time); never backwards. */
  advanceTo(at: number): void { this.t = Math.max(this.t, at); }
}
