// A node that dies right after claiming a schedule tick, before its run starts: on Postgres the claim
// stores the tick's run, held under a lease, in the same statement, so another node's resumer takes
// the run over once the lease expires and the tick runs exactly once (before, the tick was lost).
// A run that crashes on its node before its first checkpoint (a param's validate whose jq fails) is
// recorded failed there: otherwise the resumers would take it over, crash again, and claim it again
// after every lease without end. The two cases run side by side, each on a schema of its own.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from '../../runtime/ir.ts';
import { systemClock } from '../../runtime/services.ts';
import type { Store } from '../../runtime/store-types.ts';
import { PostgresStore } from '../../runtime/store/postgres.ts';
import { startSchedules } from '../../runtime/schedule/scheduler.ts';
import { startResumer } from '../../runtime/durable/resumer.ts';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { planOf, testEnv } from '../support/plans.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { dropSchema, DATABASE_URL, schemaName, until } from './helpers.ts';

type Up = Awaited<ReturnType<typeof countingUpstream>>;
let up: Up;
const schemas: string[] = [];
const opened: PostgresStore[] = [];
beforeAll(async () => {
  up = await countingUpstream({ '/tick': (_q, res) => json(res, 200, {}) });
});
afterAll(async () => { for (const s of opened) await s.close(); for (const s of schemas) await dropSchema(s); await up.close(); await closeHttpPools(); });

/** Two nodes' stores (each its own pool) on a new schema. */
async function twoStores(tag: string): Promise<{ schema: string; stores: PostgresStore[] }> {
  const schema = schemaName(tag);
  schemas.push(schema);
  const stores: PostgresStore[] = [];
  for (let n = 0; n < 2; n++) { const s = new PostgresStore({ url: DATABASE_URL, schema, leaseMs: 300 }); await s.init(); stores.push(s); opened.push(s); }
  return { schema, stores };
}

/** Node A's store: the claim commits, then the node is gone (nothing after it ever runs). */
function diesAfterClaim(store: Store, claimed: () => void): Store {
  const s = Object.create(store) as Store;
  s.claimTick = async (...a) => {
    if (await store.claimTick(...a)) { claimed(); await new Promise(() => {}); }
    return false;
  };
  return s;
}

/** A plan whose one schedule ticks once, a second and a half from now (6 fields, seconds first:
 *  tests only); `validate` is appended to its param. */
async function nightly(validate = '') {
  const plan = await planOf('jobs.yaml', 'interpreted', `
interfaces:
  nightly:
    schedule: { cron: "0 3 * * *", enabled: true }
    params:
      who:
        default_value: nightly${validate}
    actions:
      - name: Ping
        url: a|var::API|/tick?who=a|params::who|
`);
  const at = new Date(Date.now() + 1500);
  plan.interfaces[0]!.schedule = { cron: `${at.getUTCSeconds()} ${at.getUTCMinutes()} ${at.getUTCHours()} * * *`, enabled: true } as Json;
  return plan;
}

describe.concurrent('a tick claimed on a schema of its own', () => {
  describe('a node dying between claiming a tick and running it', () => {
    it('leaves a run that another node takes over: the tick runs exactly once', async ({ expect }) => {
      const { schema, stores } = await twoStores('claimcrash');
      const plan = await nightly();
      const env = { ...testEnv({ API: up.url }), uuid: randomUUID };
      let claimed = false;
      const a = startSchedules([plan], { store: diesAfterClaim(stores[0]!, () => { claimed = true; }), env, services: { clock: systemClock, store: stores[0]! }, node: 'node-a', seconds: true, log: () => {} });
      const b = startResumer({ plans: [plan], store: stores[1]!, env, services: { clock: systemClock, store: stores[1]! }, node: 'node-b', pollMs: 50 });
      try {
        await until(() => claimed || undefined, 10_000);
        const [row] = await until(async () => {
          const r = await stores[1]!.pool.query(`SELECT status, claimed_by, state->'tick' AS tick FROM "${schema}".runs`);
          return r.rows.length === 1 && r.rows[0].status === 'succeeded' ? r.rows : undefined;
        }, 15_000);
        expect(row).toMatchObject({ claimed_by: 'node-b', tick: { schedule: 'jobs.nightly', attempt: 1 } });
        // Started from the beginning by the node that took it over: params resolved, the action run once
        // (the other case's run never reaches its action).
        expect(up.hits.map((h) => h.path)).toEqual(['/tick?who=nightly']);
        // A lease and several polls later, nothing runs it again.
        await new Promise((r) => setTimeout(r, 1000));
        expect(up.count('/tick')).toBe(1);
        expect((await stores[1]!.pool.query(`SELECT count(*)::int AS n FROM "${schema}".ticks`)).rows[0].n).toBe(1);
      } finally {
        await b.stop();
        void a.stop(); // its claim never returns: only its timers are cleared
      }
    }, 30_000);
  });

  describe('a scheduled run that crashes before its first checkpoint', () => {
    it('is recorded as failed where it crashed, not taken over by another node', async ({ expect }) => {
      const { schema, stores } = await twoStores('crashrun');
      const plan = await nightly(`
        validate:
          jq: 'error("boom")'
          is_equal_to: true`);
      const env = { ...testEnv({ API: up.url }), uuid: randomUUID };
      const logA: string[] = [];
      const logB: string[] = [];
      const a = startSchedules([plan], { store: stores[0]!, env, services: { clock: systemClock, store: stores[0]! }, node: 'node-a', seconds: true, log: (m) => logA.push(m) });
      const b = startResumer({ plans: [plan], store: stores[1]!, env, services: { clock: systemClock, store: stores[1]! }, node: 'node-b', pollMs: 50, log: (m) => logB.push(m) });
      try {
        await until(() => logA.find((m) => m.includes('run crashed')), 10_000);
        // Several leases later: the run was never resumed elsewhere, and it is no longer held.
        await new Promise((r) => setTimeout(r, 1500));
        expect(logB.filter((m) => m.includes('resume failed'))).toEqual([]);
        const { rows } = await stores[1]!.pool.query(`SELECT status FROM "${schema}".runs WHERE status <> 'succeeded'`);
        expect(rows.map((r: { status: string }) => r.status)).toEqual(['failed']);
      } finally {
        await b.stop();
        await a.stop();
      }
    }, 30_000);
  });
});
