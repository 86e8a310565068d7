// Schedules on Postgres: two nodes (two stores with their own connection pools) run one
// every-second schedule; each tick runs exactly once across both. The two tests run side by side:
// their schedules, upstream paths and store keys are their own.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from '../../runtime/ir.ts';
import { systemClock } from '../../runtime/services.ts';
import { PostgresStore } from '../../runtime/store/postgres.ts';
import { startSchedules } from '../../runtime/schedule/scheduler.ts';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { planOf, testEnv } from '../support/plans.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { DATABASE_URL, dropSchema, schemaName, until } from './helpers.ts';

type Up = Awaited<ReturnType<typeof countingUpstream>>;
let up: Up;
const schema = schemaName('sched');
const stores: PostgresStore[] = [];
beforeAll(async () => {
  up = await countingUpstream({ '/tick': (_q, res) => json(res, 200, {}), '/flaky': (_q, res, n) => json(res, n === 1 ? 500 : 200, {}) });
  for (let n = 0; n < 2; n++) { const s = new PostgresStore({ url: DATABASE_URL, schema, leaseMs: 300 }); await s.init(); stores.push(s); }
});
afterAll(async () => { for (const s of stores) await s.close(); await dropSchema(schema); await up.close(); await closeHttpPools(); });

describe.concurrent('schedules on two nodes sharing Postgres', () => {
  it('fire once per tick across both nodes', async ({ expect }) => {
    const plans = await Promise.all(stores.map(() => planOf('jobs.yaml', 'compiled', `
interfaces:
  tick:
    schedule: { cron: "* * * * *", enabled: true }
    actions:
      - name: Ping
        url: a|var::API|/tick
`)));
    // Every second instead of every minute: the 6-field form is for tests only (configs take 5 fields).
    for (const p of plans) p.interfaces[0]!.schedule = { cron: '* * * * * *', enabled: true } as Json;
    const nodes = plans.map((plan, n) => startSchedules([plan], { store: stores[n]!, env: { ...testEnv({ API: up.url }), uuid: randomUUID }, services: { clock: systemClock, store: stores[n]! }, node: `node-${n}`, seconds: true, log: () => {} }));
    await until(() => (up.count('/tick') >= 4 ? true : undefined), 10_000);
    await Promise.all(nodes.map((s) => s.stop()));
    const claimed = nodes[0]!.ticks + nodes[1]!.ticks;
    // The ticks table holds one row per (schedule, tick): a claim that let both nodes win a tick
    // would show as more runs (and more claimed ticks) than rows.
    const rows = await stores[0]!.pool.query(`SELECT count(*)::int AS n FROM "${schema}".ticks WHERE schedule = 'jobs.tick'`);
    expect(up.count('/tick')).toBe(rows.rows[0].n);
    expect(claimed).toBe(rows.rows[0].n);
    expect(claimed).toBeGreaterThanOrEqual(4);
  }, 20_000);

  it('a retry whose node stopped during the wait is run once by the other node, a lease after it was due', async ({ expect }) => {
    const plans = await Promise.all(stores.map(() => planOf('jobs.yaml', 'interpreted', `
interfaces:
  flaky:
    schedule: { cron: "0 3 * * *", enabled: true, max_attempts: 2, retry_backoff_seconds: 1 }
    actions:
      - name: Ping
        url: a|var::API|/flaky
`)));
    // One tick, a second from now (6 fields, seconds first: tests only).
    const at = new Date(Date.now() + 1500);
    for (const p of plans) p.interfaces[0]!.schedule = { cron: `${at.getUTCSeconds()} ${at.getUTCMinutes()} ${at.getUTCHours()} * * *`, enabled: true, max_attempts: 2, retry_backoff_seconds: 1 } as Json;
    const nodes = plans.map((plan, n) => startSchedules([plan], { store: stores[n]!, env: { ...testEnv({ API: up.url }), uuid: randomUUID }, services: { clock: systemClock, store: stores[n]! }, node: `node-${n}`, seconds: true, log: () => {} }));
    // The node that ran the failing tick stops before its retry is due: its timer is gone with it.
    const owner = await until(() => nodes.findIndex((s) => s.ticks === 1) + 1 || undefined, 10_000) - 1;
    const pending = await until(async () => (await stores[owner]!.stateGet('_ap/schedule', ['retry:jobs.flaky'], Date.now()))['retry:jobs.flaky'] as { due: number } | undefined, 10_000);
    await nodes[owner]!.stop();
    await until(() => (up.count('/flaky') === 2 ? true : undefined), 10_000);
    const retried = up.hits.filter((h) => h.path === '/flaky')[1]!.at;
    expect(retried).toBeGreaterThanOrEqual(pending.due + 300 - 50);
    await nodes[1 - owner]!.stop();
    expect(up.count('/flaky')).toBe(2);
  }, 20_000);
});
