// A run answering over HTTP stops when its client goes away: the signal aborts the action in
// flight, stops retries and keeps further actions from starting (runtime/exec). A run that already
// suspended is parked in the store and unaffected.
import type { Socket } from 'node:net';
import type { FastifyRequest } from 'fastify';

// The runs under way on a connection: one 'close' listener per socket (a keep-alive connection
// carries many requests) aborts them, rather than a listener added to and removed from each response.
const RUNS = Symbol('pipewright.runs');
type Tracked = Socket & { [RUNS]?: Set<AbortController> };

/** The controller of one run, aborted when its client's connection closes before runOver. */
export function abortOnDisconnect(req: FastifyRequest): AbortController {
  const ac = new AbortController();
  const socket = req.raw.socket as Tracked | null;
  if (!socket) return ac;
  if (socket.destroyed) ac.abort(new Error('the client disconnected'));
  let runs = socket[RUNS];
  if (!runs) {
    const all = (runs = socket[RUNS] = new Set());
    socket.once('close', () => {
      for (const r of all) r.abort(new Error('the client disconnected'));
      all.clear();
    });
  }
  runs.add(ac);
  return ac;
}

/** The run is over (its response is being written): a connection closed after this cancels nothing. */
export function runOver(req: FastifyRequest, ac: AbortController): void {
  (req.raw.socket as Tracked | null)?.[RUNS]?.delete(ac);
}
