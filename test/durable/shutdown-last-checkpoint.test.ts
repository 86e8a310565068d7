// The shutdown grace ends while a held run's last action is done and its checkpoint is still being
// written (a scheduled tick or a resumed run on Postgres): nothing of the run is left to do, so it
// finishes instead of being parked at an action past its last one.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { executeInterface } from '../../runtime/exec/run.ts';
import { systemClock } from '../../runtime/services.ts';
import { leasedCheckpoint } from '../../runtime/store/lease.ts';
import { PostgresStore } from '../../runtime/store/postgres.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { planOf, testEnv } from '../support/plans.ts';
import { DATABASE_URL, dropSchema, schemaName, until } from './helpers.ts';

const schema = schemaName('shutdownlast');
const runId = '0b7f2f4e-5d4c-4d9a-9a51-3f3c2a1e9d01';
let store: PostgresStore;
let locker: pg.Client;
let locked = false;
let up: Awaited<ReturnType<typeof countingUpstream>>;
beforeAll(async () => {
  store = new PostgresStore({ url: DATABASE_URL, schema, leaseMs: 5000 });
  await store.init();
  locker = new pg.Client({ connectionString: DATABASE_URL });
  await locker.connect();
  // The only action's call: before answering, the run's row is locked, so the checkpoint after it waits.
  up = await countingUpstream({
    '/only': (_q, res) => {
      void (async () => {
        await locker.query('BEGIN');
        await locker.query(`SELECT 1 FROM ${schema}.runs WHERE id = $1 FOR UPDATE`, [runId]);
        locked = true;
        json(res, 200, { one: 1 });
      })();
    },
  });
});
afterAll(async () => { await locker.end(); await store.close(); await dropSchema(schema); await up.close(); await closeHttpPools(); });

describe('a shutdown during the last checkpoint of a held run', () => {
  it('finishes the run: its only action succeeded', async () => {
    const plan = await planOf('jobs.yaml', 'interpreted', `
interfaces:
  work:
    actions:
      - name: Only
        url: a|var::API|/only
        output: http
`);
    const i = plan.interfaces[0]!;
    const env = testEnv({ API: up.url });
    const shutdown = new AbortController();
    const request = { method: 'SCHEDULE', path: i.route, params: {}, headers: {}, body: null, rawBody: '' };
    const running = executeInterface(plan, i, request, {
      trigger: 'schedule', env, runId, services: { clock: systemClock, store, shutdown: shutdown.signal }, checkpoint: leasedCheckpoint(store, env, 'node-a'),
    }).then((r) => r, (e: unknown) => e as Error);
    await until(() => locked || undefined, 15_000);
    // The action's answer is in; give the run the time to reach its checkpoint, which waits on the lock.
    await until(async () => {
      const { rows } = await locker.query(`SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE NOT l.granted AND a.query LIKE $1`, [`%${schema}%`]);
      return (rows[0] as { n: number }).n > 0 || undefined;
    }, 15_000);
    shutdown.abort();
    await locker.query('COMMIT');
    const r = await running;
    expect(r).not.toBeInstanceOf(Error);
    const result = r as Exclude<typeof r, Error>;
    expect(result.response.status).toBe(200);
    expect(result.response.body).toEqual({ one: 1 });
  }, 40_000);
});
