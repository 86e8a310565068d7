// A run still under way when the server's shutdown grace ends (Services.shutdown): on a durable store
// it is parked at the action in flight, due at once, so a resumer (another node, or this one after a
// restart) runs that action again and continues; without one it is stopped, and the HTTP client gets
// 503 with Retry-After and the run id. Either way nothing further of it starts on this node.
import type { RunState } from '../run-state.ts';
import type { Services } from '../services.ts';
import type { Paused } from './sequence.ts';
import { LiveList } from '../live-list.ts';

export class RunStopped extends Error {
  readonly statusCode = 503;
  constructor(readonly runId: string) { super(`run ${runId} stopped: the server shut down before it finished and has no durable store to keep it`); }
}

/** `then` of the sequence's outcome, unless the shutdown comes first: then of a pause at the action in
 *  flight, or RunStopped. With every one of the `total` actions settled (the last checkpoint being
 *  written), the sequence has nothing left to start: its own outcome is awaited. `then` is applied
 *  here, in the same turn, rather than by the caller on the returned promise (a promise and a turn
 *  more on every request). */
export function untilShutdown<R>(work: Promise<Paused | undefined>, state: RunState, services: Services, start: number, total: number, then: (paused: Paused | undefined) => R | Promise<R>): Promise<R> {
  const signal = services.shutdown;
  if (!signal) return work.then(then);
  const settledBefore = state.seq.order.length; // each action of the sequence adds one when it settles
  return new Promise((resolve, reject) => {
    // Settled once: after a stop, the work's later outcome is ignored (and `then` not run again).
    let over = false;
    const end = (paused: Paused | undefined) => {
      if (over) return;
      over = true;
      try { resolve(then(paused)); } catch (e) { reject(e); }
    };
    const stop = () => {
      const index = start + state.seq.order.length - settledBefore;
      if (index >= total) return;
      work.catch(() => {}); // its outcome no longer counts
      if (!services.store?.durable) { over = true; return reject(new RunStopped(state.id)); }
      end({ index, suspend: { reason: 'shutdown', at: services.clock.now() } });
    };
    if (signal.aborted) stop();
    const runs = signal.aborted ? undefined : waitingOn(signal);
    const waiter = runs?.add(stop);
    work.then(
      (v) => { if (waiter) runs!.remove(waiter); end(v); },
      (e: unknown) => { if (waiter) runs!.remove(waiter); if (!over) { over = true; reject(e); } },
    );
  });
}

// One 'abort' listener per signal for all its runs, not one per run: the signal lives as long as the
// server, and a removed listener keeps its links to the listeners added after it (see LiveList).
const waiting = new WeakMap<AbortSignal, LiveList<() => void>>();

function waitingOn(signal: AbortSignal): LiveList<() => void> {
  let list = waiting.get(signal);
  // Stryker disable next-line ConditionalExpression: a list (and listener) per run stops the same runs; sharing one only saves memory
  if (!list) {
    const runs = (list = new LiveList());
    waiting.set(signal, runs);
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: a signal aborts once; `once` only lets the listener go afterwards
    signal.addEventListener('abort', () => { for (const stop of runs.values()) stop(); }, { once: true });
  }
  return list;
}
