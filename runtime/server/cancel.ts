// A run answering over HTTP stops when its client goes away: the signal aborts the action in
// flight, stops retries and keeps further actions from starting (runtime/exec). A run that already
// suspended is parked in the store and unaffected.
import type { FastifyRequest } from 'fastify';
import { connectionOf, type Connection } from './connections.ts';
import { RunCancel } from '../run-cancel.ts';

/** The cancellation of one run, aborted when its client's connection closes before runOver. */
export function abortOnDisconnect(req: FastifyRequest): RunCancel {
  const ac = new RunCancel();
  const socket = req.raw.socket;
  if (!socket) return ac;
  if (socket.destroyed) ac.abort(new Error('the client disconnected'));
  const c = connectionOf(socket);
  if (!c.run) c.run = ac;
  else (c.more ??= new Set()).add(ac);
  return ac;
}

/** The run is over (its response is being written): a connection closed after this cancels nothing. */
export function runOver(req: FastifyRequest, ac: RunCancel): void {
  const socket = req.raw.socket;
  if (!socket) return;
  const c: Connection = connectionOf(socket);
  if (c.run === ac) c.run = undefined;
  else c.more?.delete(ac);
}
