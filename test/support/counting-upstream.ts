// An upstream that scripts its answers per path and records every hit with its time, headers and
// the number of requests in flight (to check retry counts, spacing, idempotency and concurrency).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Hit { path: string; at: number; headers: IncomingMessage['headers']; body: string }
type Handler = (req: IncomingMessage, res: ServerResponse, n: number, body: string) => void | Promise<void>;

export async function countingUpstream(routes: Record<string, Handler>) {
  const hits: Hit[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const counts = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const body = Buffer.concat(chunks).toString('utf8');
      const n = (counts.get(path) ?? 0) + 1;
      counts.set(path, n);
      hits.push({ path: req.url ?? '/', at: Date.now(), headers: req.headers, body });
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        const h = routes[path] ?? Object.entries(routes).find(([p]) => p.endsWith('*') && path.startsWith(p.slice(0, -1)))?.[1];
        if (h) await h(req, res, n, body);
        else { res.writeHead(404); res.end(); }
      } finally { inFlight--; }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    hits,
    count: (path: string) => counts.get(path) ?? 0,
    get maxInFlight() { return maxInFlight; },
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

export const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};
