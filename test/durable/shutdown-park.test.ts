// A request whose run is still under way when the shutdown grace ends (Services.shutdown aborted): on
// a durable store the run is suspended at the action in flight and another node's resumer continues
// it (that action runs again, the earlier ones do not); without one the client gets 503 with
// Retry-After and the run id, and nothing further of the run starts.
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { startResumer } from '../../runtime/durable/resumer.ts';
import { buildApp } from '../../runtime/server/app.ts';
import { shutdownLeft } from '../../runtime/server/drain.ts';
import { systemClock, type Services } from '../../runtime/services.ts';
import { MemoryStore } from '../../runtime/store/memory.ts';
import { PostgresStore } from '../../runtime/store/postgres.ts';
import type { Store } from '../../runtime/store-types.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { planOf, testEnv } from '../support/plans.ts';
import { DATABASE_URL, dropSchema, schemaName, until } from './helpers.ts';

type Up = Awaited<ReturnType<typeof countingUpstream>>;
let up: Up;
const hanging: ServerResponse[] = [];
const schema = schemaName('shutdown');
const stores: PostgresStore[] = [];
beforeAll(async () => {
  up = await countingUpstream({
    '/first': (_q, res) => json(res, 200, { one: 1 }),
    // The first call of each test hangs (the node shuts down during it); later calls answer.
    '/slow': (_q, res, n) => (n % 2 === 1 ? void hanging.push(res) : json(res, 200, { two: 2 })),
    '/done': (_q, res) => json(res, 200, { ok: true }),
  });
  for (let n = 0; n < 2; n++) { const s = new PostgresStore({ url: DATABASE_URL, schema, leaseMs: 1000 }); await s.init(); stores.push(s); }
});
afterAll(async () => { for (const r of hanging) r.destroy(); for (const s of stores) await s.close(); await dropSchema(schema); await up.close(); await closeHttpPools(); });

const config = `
interfaces:
  work:
    method: POST
    actions:
      - name: First
        url: a|var::API|/first
      - name: Slow
        url: a|var::API|/slow
      - name: Done
        url: a|var::API|/done
        output: http
`;

/** Serves the config on `store` with a shutdown signal; returns the app, its url and the signal's controller. */
async function serve(store: Store) {
  const plan = await planOf('jobs.yaml', 'interpreted', config);
  const shutdown = new AbortController();
  const services: Services = { clock: systemClock, store, shutdown: shutdown.signal };
  const env = testEnv({ API: up.url });
  const app = buildApp([plan], { env, services, node: 'node-a', warn: () => {} });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address() as { port: number };
  return { app, plan, env, shutdown, url: `http://127.0.0.1:${addr.port}` };
}

describe('a run under way when the shutdown grace ends', () => {
  it('is suspended into a durable store and resumed by another node from the action in flight', async () => {
    const a = await serve(stores[0]!);
    const before = { first: up.count('/first'), slow: up.count('/slow'), done: up.count('/done') };
    try {
      const pending = fetch(`${a.url}/work`, { method: 'POST' });
      await until(() => hanging.length === 1 || undefined, 15_000);
      a.shutdown.abort();
      const r = await pending;
      expect(r.status).toBe(202);
      const body = (await r.json()) as { run_id: string };
      expect(body).toMatchObject({ status: 'suspended', action: 'Slow', reason: 'shutdown' });
      expect(r.headers.get('x-run-id')).toBe(body.run_id);
      expect(shutdownLeft(a.app)).toEqual({ suspended: [{ run_id: body.run_id, interface: 'jobs.work', action: 'Slow' }], stopped: [] });
      // The cut call returns after all: nothing further of the run starts on the node shutting down.
      json(hanging[0]!, 200, { late: true });
      // Another node's resumer continues it: Slow again, then Done; First is not repeated.
      const b = startResumer({ plans: [a.plan], store: stores[1]!, env: a.env, services: { clock: systemClock, store: stores[1]! }, node: 'node-b', pollMs: 50 });
      try {
        const run = await until(async () => { const s = await stores[1]!.loadRun(body.run_id); return s?.status === 'succeeded' ? s : undefined; }, 15_000);
        expect(run.steps.Slow).toMatchObject({ outcome: 'succeeded', data: { two: 2 } });
      } finally { await b.stop(); }
      expect({ first: up.count('/first') - before.first, slow: up.count('/slow') - before.slow, done: up.count('/done') - before.done }).toEqual({ first: 1, slow: 2, done: 1 });
    } finally { await a.app.close(); }
  }, 40_000);

  it('without a durable store is stopped: 503 with Retry-After and the run id', async () => {
    const a = await serve(new MemoryStore());
    const before = { done: up.count('/done') };
    try {
      const pending = fetch(`${a.url}/work`, { method: 'POST' });
      await until(() => hanging.length === 2 || undefined, 15_000);
      a.shutdown.abort();
      const r = await pending;
      expect(r.status).toBe(503);
      expect(r.headers.get('retry-after')).toBe('5');
      const body = (await r.json()) as { error: { status: number; message: string; run_id: string } };
      expect(body.error).toMatchObject({ status: 503, message: expect.stringMatching(/shut down before the run finished/) });
      expect(r.headers.get('x-run-id')).toBe(body.error.run_id);
      expect(shutdownLeft(a.app)).toEqual({ suspended: [], stopped: [{ run_id: body.error.run_id, interface: 'jobs.work' }] });
      // The cut call returns after all: Done never starts.
      json(hanging[1]!, 200, { late: true });
      await until(() => hanging[1]!.writableFinished || undefined);
      await new Promise((res) => setTimeout(res, 300));
      expect(up.count('/done')).toBe(before.done);
    } finally { await a.app.close(); }
  }, 40_000);
});
