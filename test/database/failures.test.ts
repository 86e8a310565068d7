// Failure paths of the database action, in both paths: an unreachable server, a wrong password (an
// unknown role on the trust-auth Postgres here), a query error. Each names the action, is retried
// (every failure of a non-HTTP action is), and leaves no pool behind; a long retry wait suspends the
// run in the durable store and the resumed attempt succeeds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabasePools, openPools } from '../../runtime/actions/database/pools.ts';
import { resumeRun } from '../../runtime/exec/run.ts';
import { systemClock } from '../../runtime/services.ts';
import { PostgresStore } from '../../runtime/store/postgres.ts';
import { planOf, testEnv } from '../support/plans.ts';
import { MARIADB_BASE, MODES, PG_BASE, mariaDb, pgSchema, runner } from './helpers.ts';

let pgdb: Awaited<ReturnType<typeof pgSchema>>;
let maria: Awaited<ReturnType<typeof mariaDb>>;
let store: PostgresStore;
beforeAll(async () => {
  pgdb = await pgSchema('fail');
  maria = await mariaDb('fail');
  store = new PostgresStore({ url: PG_BASE, schema: `${pgdb.name}_store` });
  await store.init();
});
afterAll(async () => { await closeDatabasePools(); await store.close(); await pgdb.sql(`DROP SCHEMA IF EXISTS "${pgdb.name}_store" CASCADE`); await pgdb.drop(); await maria.drop(); });

const config = (query = 'SELECT 1 AS one') => `
databases:
  main:
    url: a|secret::URL|
    pool_size: 1
    connect_timeout: 2s
interfaces:
  q:
    show_error_detail: true
    actions:
      - name: Lookup
        query: ${query}
        retry: { attempts: 3, delay: 0, jitter: none }
`;

const wrongPassword = MARIADB_BASE.replace('mysql://root@', 'mysql://root:not-the-password@');

describe.each(MODES)('database failures (%s)', (mode) => {
  it.each([
    ['an unreachable Postgres', 'postgres://postgres@127.0.0.1:1/test', 502, /^database "main" \(127\.0\.0\.1:1\/test\): could not connect: .*ECONNREFUSED/],
    ['an unreachable MariaDB', 'mysql://root@127.0.0.1:1/test', 502, /^database "main" \(127\.0\.0\.1:1\/test\): could not connect: .*ECONNREFUSED/],
    ['a wrong MariaDB password', `${wrongPassword}/test`, 502, /^database "main" \(127\.0\.0\.1:3306\/test\): could not connect: Access denied for user 'root'/],
    ['an unknown Postgres role', PG_BASE.replace('postgres@', 'nobody_here@'), 502, /could not connect: role "nobody_here" does not exist/],
  ])('%s: a clear error naming the action, three attempts, no pool left', async (_what, url, status, detail) => {
    const run = await runner(`fail-${mode}.yaml`, config(), mode, { URL: url });
    const pools = openPools();
    const r = await run('q');
    expect(r.response.status).toBe(status);
    const error = (r.response.body as any).error;
    expect(error).toMatchObject({ status, message: 'action "Lookup" failed', action: 'Lookup' });
    expect(error.detail).toMatch(detail);
    expect(error.detail).not.toContain('not-the-password');
    expect(r.state.steps.Lookup!.attempts).toBe(3);
    expect(openPools()).toBe(pools);
  });

  it.each([['Postgres', () => pgdb.url, /relation "missing_table" does not exist \(SQLSTATE 42P01\)/], ['MariaDB', () => maria.url, /missing_table' doesn't exist \(SQLSTATE 42S02\)/]])(
    'a query error on %s is retried and the connection goes back to the pool', async (_what, url, detail) => {
      const run = await runner(`qerr-${mode}.yaml`, config('SELECT * FROM missing_table'), mode, { URL: url() });
      const r = await run('q');
      expect(r.response.status).toBe(500);
      expect((r.response.body as any).error.detail).toMatch(detail);
      expect(r.state.steps.Lookup!.attempts).toBe(3);
      // pool_size 1: had a failed attempt kept its connection, this would wait for the connect timeout.
      const ok = await (await runner(`qok-${mode}.yaml`, config(), mode, { URL: url() }))('q');
      expect(ok.response.body).toEqual({ Lookup: [{ one: 1 }] });
      await closeDatabasePools();
    });

  it.each([
    ['the action timeout on Postgres', () => pgdb.url, 'SELECT pg_sleep(3)', 'timeout: 300', /the query was abandoned when the action's timeout passed/],
    ['statement_timeout on Postgres', () => pgdb.url, 'SELECT pg_sleep(3)', '', /canceling statement due to statement timeout \(SQLSTATE 57014\)/],
    ['statement_timeout on MariaDB', () => maria.url, 'SELECT SLEEP(3)', '', /max_statement_time/],
  ])('%s: 504, and the pool still serves', async (_what, url, query, timeout, detail) => {
    const yaml = config(query).replace('connect_timeout: 2s', `connect_timeout: 2s\n    statement_timeout: ${timeout ? '10s' : '300ms'}`).replace('retry: { attempts: 3, delay: 0, jitter: none }', timeout ? `${timeout}` : 'retry: { attempts: 1 }');
    const r = await (await runner(`slow-${mode}.yaml`, yaml, mode, { URL: url() }))('q');
    expect(r.response.status).toBe(504);
    expect((r.response.body as any).error.detail).toMatch(detail);
    const ok = await (await runner(`slow-ok-${mode}.yaml`, config().replace('connect_timeout: 2s', 'connect_timeout: 2s\n    statement_timeout: 300ms'), mode, { URL: url() }))('q');
    expect(ok.response.body).toEqual({ Lookup: [{ one: 1 }] });
  });

  it('suspends a long retry wait in the durable store and succeeds on resume', async () => {
    const table = `later_${mode}`;
    const yaml = config(`SELECT count(*) AS n FROM ${table}`).replace('delay: 0, jitter: none', 'delay: 60000, jitter: none');
    const plan = await planOf(`suspend-${mode}.yaml`, mode, yaml);
    const env = testEnv({}, { URL: pgdb.url });
    const services = { clock: systemClock, store, maxDelayMs: 1000 };
    const { executeInterface } = await import('../../runtime/exec/run.ts');
    const first = await executeInterface(plan, plan.interfaces[0]!, { method: 'POST', path: '/q', params: {}, headers: {}, body: null, rawBody: '' }, { trigger: 'test', env, services });
    expect(first.response.status).toBe(202);
    expect(first.state.retry).toMatchObject({ action: 'Lookup', attempts: 1 });
    await pgdb.sql(`CREATE TABLE ${table} (x int)`);
    const resumed = await resumeRun(plan, first.state, { kind: 'wake' }, { env, services });
    expect(resumed.response.body).toEqual({ Lookup: [{ n: 0 }] });
    expect(resumed.state.steps.Lookup!.attempts).toBe(2);
  });
});
