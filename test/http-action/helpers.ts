// A real local upstream (node:http on port 0) and small fixtures for the http action tests.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import net from 'node:net';
import { Worker } from 'node:worker_threads';
import type { AddressInfo } from 'node:net';
import type { ActionContext } from '../../runtime/actions/types.ts';
import type { RequestData } from '../../runtime/run-state.ts';
import { systemClock, type Clock } from '../../runtime/services.ts';

export interface Received { method: string; url: string; headers: IncomingMessage['headers']; body: string; remotePort?: number }
export type Route = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

export async function startUpstream(routes: Record<string, Route>) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body: body.toString('utf8'), remotePort: req.socket.remotePort });
      const route = routes[new URL(req.url!, 'http://x').pathname];
      if (route) route(req, res, body);
      else { res.statusCode = 404; res.end('no route'); }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    last: () => received[received.length - 1],
    close: () => { server.closeAllConnections(); return new Promise<void>((r) => server.close(() => r())); },
  };
}

export function ctx(o: { signal?: AbortSignal; clock?: Clock; executionId?: string; attempt?: number; request?: RequestData } = {}): ActionContext {
  return {
    signal: o.signal ?? new AbortController().signal,
    run: (o.request ? { request: o.request } : {}) as ActionContext['run'], scope: {} as ActionContext['scope'],
    services: { clock: o.clock ?? systemClock },
    attempt: o.attempt ?? 1, input: undefined, executionId: o.executionId ?? 'exec-1',
  };
}

/** A port nothing listens on: bound, then released. */
export async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

/** A loopback port whose connects hang: a worker listens with backlog 1 and then blocks its event
 *  loop so it never accepts; filler connections fill the kernel's accept queue, later SYNs are dropped. */
export async function hangingPort(): Promise<{ port: number; close: () => Promise<void> }> {
  const w = new Worker(`
    const net = require('node:net'); const { parentPort } = require('node:worker_threads');
    const s = net.createServer(); s.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
      parentPort.postMessage(s.address().port);
      setTimeout(() => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 30000), 50);
    });`, { eval: true });
  const port = await new Promise<number>((r) => w.once('message', r));
  await new Promise((r) => setTimeout(r, 150));
  const fillers = Array.from({ length: 4 }, () => net.connect(port, '127.0.0.1').on('error', () => {}));
  await new Promise((r) => setTimeout(r, 150));
  return { port, close: async () => { fillers.forEach((f) => f.destroy()); await w.terminate(); } };
}

export function json(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}
