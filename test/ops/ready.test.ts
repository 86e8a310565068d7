// GET /_ap/ready (issue 31, part 5): 200 while the store answers, the broker is connected and the
// process is not draining; 503 naming which, in fixed words only. The store here is real Postgres
// reached through a TCP relay the test cuts (the shared Postgres keeps running); /_ap/health stays
// 200 throughout (liveness is not readiness).
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../runtime/server/app.ts';
import { openStore } from '../../runtime/store/index.ts';
import { systemClock } from '../../runtime/services.ts';
import type { Store } from '../../runtime/store-types.ts';
import { DATABASE_URL, dropSchema, schemaName } from '../durable/helpers.ts';

/** A relay to Postgres; `cut` closes it and every connection through it. */
async function relay(target: URL): Promise<{ port: number; cut(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const pgSocket = connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, pgSocket]) { sockets.add(s); s.on('close', () => sockets.delete(s)); s.on('error', () => {}); }
    client.pipe(pgSocket).pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { port, cut: () => new Promise<void>((r) => { for (const s of sockets) s.destroy(); server.close(() => r()); }) };
}

const schema = schemaName('ready');
let store: Store;
let link: Awaited<ReturnType<typeof relay>>;
beforeAll(async () => {
  const url = new URL(DATABASE_URL);
  link = await relay(url);
  const via = new URL(DATABASE_URL);
  via.host = `127.0.0.1:${link.port}`;
  store = await openStore({ SERVICE__DATABASE_URL: via.href, SERVICE__DATABASE_SCHEMA: schema });
});
afterAll(async () => {
  await store.close().catch(() => {});
  await dropSchema(schema);
});

describe('GET /_ap/ready', () => {
  it('is 200 when ready, and 503 naming the broker, the drain and an unreachable store', async () => {
    let broker = true, draining = false;
    const app = buildApp([], { services: { clock: systemClock, store }, warn: () => {}, readiness: { broker: () => broker, draining: () => draining } });
    const ready = async () => { const r = await app.inject({ url: '/_ap/ready' }); return [r.statusCode, r.json(), r.headers['cache-control']]; };
    expect(await ready()).toEqual([200, { ready: true }, 'no-store']);
    broker = false;
    expect(await ready()).toEqual([503, { ready: false, not: ['broker'] }, 'no-store']);
    draining = true;
    expect(await ready()).toEqual([503, { ready: false, not: ['broker', 'draining'] }, 'no-store']);
    broker = true; draining = false;
    await link.cut();
    const down = await app.inject({ url: '/_ap/ready' });
    // Fixed words only: no host, port, error code or setting reaches an open route.
    expect([down.statusCode, down.json()]).toEqual([503, { ready: false, not: ['store'] }]);
    expect(down.body).not.toMatch(/ECONN|127\.0\.0\.1|postgres|DATABASE/i);
    expect((await app.inject({ url: '/_ap/health' })).statusCode).toBe(200);
    await app.close();
  });

  it('the in-memory store is always reachable', async () => {
    const memory = await openStore({});
    const app = buildApp([], { services: { clock: systemClock, store: memory }, warn: () => {} });
    const r = await app.inject({ url: '/_ap/ready' });
    expect([r.statusCode, r.json()]).toEqual([200, { ready: true }]);
    await app.close();
  });
});
