// response.logs, in both paths, served over HTTP: one row per run into pipewright_interface_log
// (created by the service) of the named database, by `on`; Postgres and MariaDB; secrets redacted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { closeDatabasePools } from '../../runtime/actions/database/pools.ts';
import { buildApp } from '../../runtime/server/app.ts';
import { processEnvironment } from '../../runtime/environment.ts';
import { until as untilOk } from '../durable/helpers.ts';

/** Polls until `f` gives a value; the log table does not exist before the first write. */
const until = <T>(f: () => Promise<T | undefined>) => untilOk(() => f().catch(() => undefined));
import { planOf } from '../support/plans.ts';
import { MODES, mariaDb, pgSchema } from './helpers.ts';

let pgdb: Awaited<ReturnType<typeof pgSchema>>;
let maria: Awaited<ReturnType<typeof mariaDb>>;
const apps: FastifyInstance[] = [];
beforeAll(async () => { pgdb = await pgSchema('log'); maria = await mariaDb('log'); });
afterAll(async () => { for (const a of apps) await a.close(); await closeDatabasePools(); await pgdb.drop(); await maria.drop(); });

const config = `
databases:
  audit: { url: "a|secret::AUDIT_URL|" }
  maria: { url: "a|secret::MARIA_URL|" }
interfaces:
  work:
    method: POST
    actions:
      - name: Check
        input: a|body|
        assert:
          tests:
            - value: a|body::ok|
              is_equal_to: true
          error_message: "not ok with token a|var::TOKEN|"
    response:
      logs:
        - { on: any, database: audit }
        - { on: error, database: maria }
`;

describe.each(MODES)('response.logs (%s)', (mode) => {
  it('writes a row per run on any outcome, and only failures where on: error', async () => {
    const plan = await planOf(`logs_${mode}.yaml`, mode, config);
    const env = processEnvironment({ SERVICE__SECRET__AUDIT_URL: pgdb.url, SERVICE__SECRET__MARIA_URL: maria.url, SERVICE__VAR__TOKEN: 's3cr3t-token' });
    const warnings: string[] = [];
    const app = buildApp([plan], { env, warn: (m) => warnings.push(m) });
    apps.push(app);
    const ok = await app.inject({ method: 'POST', url: '/work', payload: { ok: true } });
    const bad = await app.inject({ method: 'POST', url: '/work', payload: { ok: false } });
    expect([ok.statusCode, bad.statusCode]).toEqual([200, 422]);
    const name = `logs_${mode}`;
    const rows = await until(async () => {
      const r = await pgdb.sql(`SELECT config_name, interface_name, run_id, triggered_by, outcome, http_code, error, duration_ms >= 0 AS timed FROM pipewright_interface_log WHERE config_name = $1 ORDER BY outcome DESC`, [name]);
      return r.length === 2 ? r : undefined;
    }).catch((e) => { throw new Error(`${e.message}; warnings: ${warnings.join('; ')}`); });
    expect(rows).toEqual([
      { config_name: name, interface_name: 'work', run_id: ok.headers['x-run-id'], triggered_by: 'http', outcome: 'succeeded', http_code: 200, error: null, timed: true },
      { config_name: name, interface_name: 'work', run_id: bad.headers['x-run-id'], triggered_by: 'http', outcome: 'failed', http_code: 422, error: expect.stringContaining('not ok with token [redacted]'), timed: true },
    ]);
    const mrows = await until(async () => {
      const r = await maria.sql(`SELECT interface_name, run_id, outcome, http_code FROM pipewright_interface_log WHERE config_name = ?`, [name]);
      return r.length ? r : undefined;
    });
    expect(warnings).toEqual([]);
    expect(mrows).toEqual([{ interface_name: 'work', run_id: bad.headers['x-run-id'], outcome: 'failed', http_code: 422 }]);
  });
});
