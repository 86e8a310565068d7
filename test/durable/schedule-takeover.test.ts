// A scheduled tick whose run is under way when its node is killed (SIGKILL): two server processes on
// one Postgres (a schema per test). The other node takes the run over once its lease expires and
// continues it from its last completed action (those are not run again; the action in flight runs
// again with the same idempotency key); when the continued run fails, the schedule retries the tick
// by its rules (max_attempts, retry_backoff_seconds), and the retry runs once. The two cases of a path
// run side by side (each its own schema, upstream and nodes): most of their time is waiting.
import { spawn, type ChildProcess } from 'node:child_process';
import type { ServerResponse } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it, type TestContext } from 'vitest';
import { PostgresStore } from '../../runtime/store/postgres.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { DATABASE_URL, dropSchema, schemaName, until } from './helpers.ts';

type Up = Awaited<ReturnType<typeof countingUpstream>>;
const schemas: string[] = [];
const dir = mkdtempSync(join(tmpdir(), 'pw-tick-takeover-'));
afterAll(async () => { for (const s of schemas) await dropSchema(s); });

const config = (maxAttempts: number) => `
interfaces:
  nightly:
    schedule: { cron: "0 3 * * *", enabled: true, max_attempts: ${maxAttempts}, retry_backoff_seconds: 0.5 }
    actions:
      - name: First
        http: { url: a|var::API|/first, method: POST }
      - name: Slow
        http: { url: a|var::API|/slow, method: POST, idempotency: {} }
      - name: Done
        http: { url: a|var::API|/done, method: POST }
`;

/** Two nodes serving `yaml` on one schema, compiled and waiting for their cron; killed when the test ends. */
async function twoNodes(yaml: string, mode: string, up: Up, schema: string, t: TestContext) {
  const file = join(dir, `jobs_${schema}.yaml`);
  writeFileSync(file, yaml);
  // The schema made beforehand: between the cron line and listening the nodes only open the store.
  const store = new PostgresStore({ url: DATABASE_URL, schema });
  await store.init();
  await store.close();
  const children: ChildProcess[] = [];
  t.onTestFinished(() => { for (const c of children) c.kill('SIGKILL'); });
  const start = () => {
    const child = spawn(process.execPath, ['--import', 'tsx', resolve('test/durable/schedule-node.ts'), file, mode], {
      env: {
        ...process.env, SERVICE__DATABASE_URL: DATABASE_URL, SERVICE__DATABASE_SCHEMA: schema, SERVICE__CRON_SECONDS: '1', SERVICE__LEASE_SECS: '1',
        SERVICE__RESUME_POLL_MS: '50', SERVICE__LOG_LEVEL: 'warn', SERVICE__VAR__API: up.url,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    child.stdout!.on('data', (d) => { out += d; });
    child.stderr!.on('data', (d) => { out += d; });
    // A limit, not a speed check: four nodes compile at once, and a shared machine may be slow.
    const seen = (re: RegExp) => until(() => re.test(out) || undefined, 150_000).catch(() => { throw new Error(`node: no ${re} in:\n${out}`); });
    return { child, seen, out: () => out };
  };
  const t0 = Date.now();
  const nodes = [start(), start()];
  await Promise.all(nodes.map((n) => n.seen(/^compiled$/m)));
  // One tick, a few seconds from now, when both nodes have started (a daily cron: it does not repeat).
  // What is left of starting (the store opened on a migrated schema, the listener) is a small part of
  // what compiling took: the lead scales with that, so a loaded machine gets a longer one.
  const at = new Date(Date.now() + Math.min(30_000, Math.max(3000, (Date.now() - t0) / 4)));
  const cron = `${at.getUTCSeconds()} ${at.getUTCMinutes()} ${at.getUTCHours()} * * *`;
  for (const n of nodes) n.child.stdin!.end(`${cron}\n`);
  await Promise.all(nodes.map((n) => n.seen(/listening on/)));
  if (Date.now() >= at.getTime()) throw new Error('the nodes started after the tick they were given (a very loaded machine)');
  return nodes;
}

async function query(sql: string) {
  const c = new pg.Client({ connectionString: DATABASE_URL });
  await c.connect();
  try { return (await c.query(sql)).rows; } finally { await c.end(); }
}

/** The node holding the tick's run while its Slow call hangs: killed with SIGKILL. */
async function killHolder(nodes: Awaited<ReturnType<typeof twoNodes>>, schema: string, hanging: ServerResponse[]) {
  await until(() => hanging.length > 0 || undefined, 30_000);
  const [row] = await until(async () => {
    const r = await query(`SELECT claimed_by FROM "${schema}".runs WHERE status = 'running'`);
    return r.length ? r : undefined;
  });
  const victim = nodes.find((n) => String(row!.claimed_by).includes(`-${n.child.pid}-`));
  if (!victim) throw new Error(`no node of the two claimed the run (${String(row!.claimed_by)})`);
  victim.child.kill('SIGKILL');
  await new Promise((r) => victim.child.once('exit', r));
  for (const r of hanging.splice(0)) r.destroy();
  return nodes.find((n) => n !== victim)!;
}

describe.each(['compiled', 'interpreted'] as const)('a scheduled tick under way when its node is killed (%s)', (mode) => {
  it.concurrent('is taken over by the other node and completes exactly once for its completed actions', async (t) => {
    const { expect } = t;
    const hanging: ServerResponse[] = [];
    const up = await countingUpstream({
      '/first': (_q, res) => json(res, 200, {}),
      // The first call hangs (the node dies during it); the takeover's call answers.
      '/slow': (_q, res, n) => (n === 1 ? void hanging.push(res) : json(res, 200, {})),
      '/done': (_q, res) => json(res, 200, { ok: true }),
    });
    t.onTestFinished(() => up.close());
    const schema = schemaName(`tick_${mode}`);
    schemas.push(schema);
    const nodes = await twoNodes(config(1), mode, up, schema, t);
    const survivor = await killHolder(nodes, schema, hanging);

    const rows = await until(async () => {
      const r = await query(`SELECT status, state->'tick' AS tick FROM "${schema}".runs`);
      return r.length === 1 && r[0]!.status === 'succeeded' ? r : undefined;
    }, 30_000).catch((e) => { throw new Error(`${(e as Error).message}\n${survivor.out()}`); });
    expect(rows[0]!.tick).toMatchObject({ schedule: expect.stringMatching(/\.nightly$/), attempt: 1 });
    expect(up.count('/first')).toBe(1);
    expect(up.count('/done')).toBe(1);
    const slow = up.hits.filter((h) => h.path === '/slow').map((h) => h.headers['idempotency-key']);
    expect(slow).toHaveLength(2);
    expect(slow[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(slow[1]).toBe(slow[0]);
    // One tick claimed, no retry attempt.
    expect(await query(`SELECT schedule FROM "${schema}".ticks`)).toHaveLength(1);
  }, 240_000);

  it.concurrent('fails after the takeover and is retried by its schedule rules, once', async (t) => {
    const { expect } = t;
    const hanging: ServerResponse[] = [];
    const up = await countingUpstream({
      '/first': (_q, res) => json(res, 200, {}),
      '/slow': (_q, res, n) => (n === 1 ? void hanging.push(res) : json(res, 200, {})),
      // The taken-over run fails at its last action; the schedule's second attempt succeeds.
      '/done': (_q, res, n) => json(res, n === 1 ? 500 : 200, {}),
    });
    t.onTestFinished(() => up.close());
    const schema = schemaName(`tickretry_${mode}`);
    schemas.push(schema);
    const nodes = await twoNodes(config(2), mode, up, schema, t);
    const survivor = await killHolder(nodes, schema, hanging);

    const rows = await until(async () => {
      const r = await query(`SELECT status, (state->'tick'->>'attempt')::int AS attempt FROM "${schema}".runs ORDER BY attempt`);
      return r.length === 2 && r.every((x) => x.status !== 'running') ? r : undefined;
    }, 30_000).catch((e) => { throw new Error(`${(e as Error).message}\n${survivor.out()}`); });
    expect(rows).toEqual([{ status: 'failed', attempt: 1 }, { status: 'succeeded', attempt: 2 }]);
    // Attempt 1: First once (before the crash), Slow twice, Done (500); attempt 2: a fresh run.
    expect(up.count('/first')).toBe(2);
    expect(up.count('/slow')).toBe(3);
    expect(up.count('/done')).toBe(2);
    const at = (path: string, i: number) => up.hits.filter((h) => h.path === path)[i]!.at;
    // The retry waited retry_backoff_seconds after the failed attempt.
    expect(at('/first', 1) - at('/done', 0)).toBeGreaterThanOrEqual(450);
    expect((await query(`SELECT schedule FROM "${schema}".ticks ORDER BY schedule`)).map((r) => String(r.schedule).replace(/^.*\./, ''))).toEqual(['nightly', 'nightly#2']);
  }, 240_000);
});
