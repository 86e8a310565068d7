// Graceful shutdown: fastify's close() stops accepting and answers new requests 503, but a keep-alive
// connection whose request is in flight stays open after its response, and the server's close waits
// for it, so a drain lasted the whole grace period. Responses written while closing carry
// `Connection: close`: the client and the server end the connection after them.
// When the grace ends, runs still under way are parked or stopped (runtime/exec/shutdown.ts); each
// HTTP one is noted here for the shutdown's log line.
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { InterfacePlan, Plan } from '../plan.ts';
import type { RunResult } from '../exec/run.ts';
import type { RunStopped } from '../exec/shutdown.ts';
import { connectionOf } from './connections.ts';
import { isReloaded } from '../reloaded.ts';

/** Seconds a client is asked to wait before retrying a run stopped by a shutdown (another node, or this one restarted). */
export const STOPPED_RETRY_AFTER_SECS = 5;

export interface LeftRun { run_id: string; interface: string; action?: string }
const left = new WeakMap<FastifyInstance, { suspended: LeftRun[]; stopped: LeftRun[] }>();

function leftOf(app: FastifyInstance) {
  let l = left.get(app);
  if (!l) left.set(app, (l = { suspended: [], stopped: [] }));
  return l;
}

/** The HTTP runs the shutdown parked in the store (resumed elsewhere) and stopped (answered 503). */
export function shutdownLeft(app: FastifyInstance): { suspended: LeftRun[]; stopped: LeftRun[] } {
  return leftOf(app);
}

/** Notes a run the shutdown parked (its response is the usual 202 of a suspended run). */
export function noteParked(app: FastifyInstance, plan: Plan, i: InterfacePlan, r: RunResult): void {
  if (r.state.wake?.reason === 'shutdown') leftOf(app).suspended.push({ run_id: r.state.id, interface: `${plan.name}.${i.name}`, action: r.state.wake.action });
}

/** A run stopped by the shutdown without a durable store: 503, Retry-After, the run id. */
export function answerStopped(reply: FastifyReply, plan: Plan, i: InterfacePlan, e: RunStopped): FastifyReply {
  leftOf(reply.server).stopped.push({ run_id: e.runId, interface: `${plan.name}.${i.name}` });
  const message = 'the server shut down before the run finished; it was not kept (no durable store): send the request again';
  return reply.code(503).header('retry-after', String(STOPPED_RETRY_AFTER_SECS)).header('x-run-id', e.runId).send({ error: { status: 503, message, run_id: e.runId } });
}

export function closeConnectionsWhenDraining(app: FastifyInstance): void {
  // The open connections, one Set entry each (rather than an onSend hook run on every response),
  // forgotten by the connection's one 'close' listener (./connections.ts).
  const open = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    open.add(socket);
    connectionOf(socket).onClose = () => open.delete(socket);
  });
  // The responses under way when the close starts are told here (node keeps a connection's current
  // response as socket._httpMessage); requests arriving later get fastify's 503 with Connection: close.
  app.addHook('preClose', async () => {
    if (isReloaded(app)) return;
    for (const socket of open) {
      const res = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
      if (res && !res.headersSent && res.req.httpVersionMajor < 2) res.setHeader('connection', 'close');
    }
  });
}
