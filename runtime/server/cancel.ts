// A run answering over HTTP stops when its client goes away: the signal aborts the action in
// flight, stops retries and keeps further actions from starting (runtime/exec). A run that already
// suspended is parked in the store and unaffected.
import type { FastifyReply } from 'fastify';

export function abortOnDisconnect(reply: FastifyReply): AbortSignal {
  const ac = new AbortController();
  // 'close' also fires after a normal response: only a close before the response was written counts.
  reply.raw.once('close', () => { if (!reply.raw.writableFinished) ac.abort(new Error('the client disconnected')); });
  return ac.signal;
}
