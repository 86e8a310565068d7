// Shared pieces of the durable-run tests: a Postgres schema per test file, served plans with a
// resumer, and a small upstream that records what the runs send.
import pg from 'pg';
import type { Plan } from '../../runtime/plan.ts';
import type { Services } from '../../runtime/services.ts';
import { systemClock } from '../../runtime/services.ts';
import type { Store } from '../../runtime/store-types.ts';
import { startResumer } from '../../runtime/durable/resumer.ts';
import { buildApp } from '../../runtime/server/app.ts';
import { processEnvironment } from '../../runtime/environment.ts';

export const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export function schemaName(tag: string): string {
  return `pw_${tag}_${process.pid}_${Date.now().toString(36)}`;
}

export async function dropSchema(schema: string): Promise<void> {
  const c = new pg.Client({ connectionString: DATABASE_URL });
  await c.connect();
  await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await c.end();
}

export async function serveDurable(plans: Plan[], store: Store, vars: Record<string, string>, o: { maxDelayMs: number; node?: string; pollMs?: number }) {
  const env = processEnvironment({ ...Object.fromEntries(Object.entries(vars).map(([k, v]) => [`SERVICE__VAR__${k}`, v])) });
  const services: Services = { clock: systemClock, store, maxDelayMs: o.maxDelayMs };
  const node = o.node ?? 'node-a';
  const app = buildApp(plans, { env, services, node, warn: () => {} });
  const resumer = startResumer({ plans, store, env, services, node, pollMs: o.pollMs ?? 50 });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address() as { port: number };
  return { url: `http://127.0.0.1:${addr.port}`, app, resumer, async close() { await resumer.stop(); await app.close(); } };
}

export async function until<T>(f: () => Promise<T | undefined> | T | undefined, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== undefined && v !== false) return v as T;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}
