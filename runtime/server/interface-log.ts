// response.logs: after a run, one row per matching entry into its database's
// `pipewright_interface_log` table (created by the service on first write; columns in
// docs/actions-database.md). Errors are redacted of secret values. Never awaited by the caller.
import type { InterfacePlan, Plan } from '../plan.ts';
import type { RunResult } from '../exec/run.ts';
import { scopeOf } from '../exec/run.ts';
import type { Environment } from '../scope.ts';
import { redactSecrets } from '../values/redact.ts';
import { driverFor } from '../actions/database/pools.ts';
import { dbSettings } from '../actions/database/settings.ts';
import { createTableOnce } from '../actions/database/create-table.ts';

export const LOG_TABLE = 'pipewright_interface_log';

const CREATE = {
  postgres: `CREATE TABLE IF NOT EXISTS ${LOG_TABLE} (id bigserial PRIMARY KEY, logged_at timestamptz NOT NULL DEFAULT now(), config_name text NOT NULL, interface_name text NOT NULL, run_id text NOT NULL, triggered_by text NOT NULL, outcome text NOT NULL, http_code integer NOT NULL, error text, started_at timestamptz NOT NULL, duration_ms integer NOT NULL)`,
  mysql: `CREATE TABLE IF NOT EXISTS ${LOG_TABLE} (id BIGINT AUTO_INCREMENT PRIMARY KEY, logged_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), config_name VARCHAR(255) NOT NULL, interface_name VARCHAR(255) NOT NULL, run_id VARCHAR(64) NOT NULL, triggered_by VARCHAR(16) NOT NULL, outcome VARCHAR(16) NOT NULL, http_code INT NOT NULL, error TEXT, started_at TIMESTAMP(6) NOT NULL, duration_ms INT NOT NULL)`,
};
const INSERT = {
  postgres: `INSERT INTO ${LOG_TABLE} (config_name, interface_name, run_id, triggered_by, outcome, http_code, error, started_at, duration_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
  mysql: `INSERT INTO ${LOG_TABLE} (config_name, interface_name, run_id, triggered_by, outcome, http_code, error, started_at, duration_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
};


/** Writes the run's log rows; resolves when they are written (rejects with the first failure). */
export async function writeInterfaceLogs(plan: Plan, i: InterfacePlan, result: RunResult, env: Environment, now: number): Promise<void> {
  const logs = i.response.logs;
  const st = result.state;
  if (!logs?.length || st.status === 'suspended' || st.status === 'running') return;
  const ok = st.status === 'succeeded';
  const matching = logs.filter((l) => l.on === 'any' || (l.on === 'success') === ok);
  if (!matching.length) return;
  const s = scopeOf(st, env);
  const started = Date.parse(st.startedAt);
  const error = result.failure ? redactSecrets([result.failure.message, result.failure.detail].filter(Boolean).join(': '), env.sensitiveValues?.() ?? []) : null;
  for (const l of matching) {
    const driver = driverFor(dbSettings(l.db(s)));
    const o = { signal: AbortSignal.timeout(30_000) };
    await createTableOnce(driver, LOG_TABLE, CREATE[driver.dialect], o);
    const at = driver.dialect === 'postgres' ? st.startedAt : st.startedAt.replace('T', ' ').replace('Z', '');
    await driver.query(INSERT[driver.dialect], [plan.name, i.name, st.id, st.trigger, ok ? 'succeeded' : 'failed', result.response.status, error, at, Math.max(0, Math.round(now - started))], o);
  }
}
