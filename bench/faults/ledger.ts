// The independent ledger: a loopback upstream that records every side effect the runs make (request
// id and action), fails every third /flaky call (500) and, while `hang` is on, holds /flaky calls
// past any timeout and drops them unrecorded: an upstream that stopped answering.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/** `key`: the Idempotency-Key the call carried (the same on every attempt of one action execution). */
export interface Effect { id: string; action: string; at: number; by?: string; key?: string }

export interface Ledger {
  url: string;
  effects: Effect[];
  tokens: Map<string, string>;
  ticks: number[];
  hang(on: boolean): void;
  close(): Promise<void>;
}

export async function startLedger(): Promise<Ledger> {
  const effects: Effect[] = [];
  const tokens = new Map<string, string>();
  const ticks: number[] = [];
  let flakyCalls = 0;
  let hanging = false;
  const held = new Set<ServerResponse>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try { body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>; } catch { /* recorded as empty */ }
      const ok = () => { res.writeHead(200, { 'content-type': 'application/json' }); res.end('{"ok":true}'); };
      const key = req.headers['idempotency-key'];
      const record = () => effects.push({ id: String(body.id), action: String(body.action), at: Date.now(), ...(body.by ? { by: String(body.by) } : {}), ...(typeof key === 'string' ? { key } : {}) });
      switch (req.url) {
        case '/flaky':
          if (hanging) {
            held.add(res);
            setTimeout(() => { held.delete(res); res.destroy(); }, 5000).unref();
            return;
          }
          if (++flakyCalls % 3 === 0) { res.writeHead(500, { 'content-type': 'application/json' }); res.end('{"error":"flaky"}'); return; }
          record(); ok(); return;
        case '/effect': record(); ok(); return;
        case '/register': tokens.set(String(body.id), String(body.token)); ok(); return;
        case '/tick': ticks.push(Date.now()); ok(); return;
        default: res.writeHead(404); res.end();
      }
    });
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    effects, tokens, ticks,
    hang(on) { hanging = on; },
    async close() {
      for (const r of held) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}
