// The `db` block the compiler puts into a database, document_operation or log config (a declared
// database, or an action's conn_string), read after interpolation.
import { optionalDurationMs } from '../../values/duration.ts';
import { DbError, DEFAULTS, type DbSettings } from './types.ts';

const POOL_MAX = 100;

export function dbSettings(v: unknown): DbSettings {
  const o = (v ?? {}) as Record<string, unknown>;
  const label = typeof o.label === 'string' ? o.label : 'conn_string';
  if (typeof o.url !== 'string' || o.url === '') throw new DbError(`database "${label}": the connection string is empty (is its secret or variable set?)`, 'connect');
  const poolSize = o.pool_size === undefined || o.pool_size === null ? DEFAULTS.poolSize : Number(o.pool_size);
  if (!Number.isInteger(poolSize) || poolSize < 1 || poolSize > POOL_MAX) throw new DbError(`database "${label}": pool_size must be a whole number from 1 to ${POOL_MAX}`, 'connect');
  return {
    url: o.url,
    label,
    poolSize,
    statementTimeoutMs: optionalDurationMs(o.statement_timeout) ?? DEFAULTS.statementTimeoutMs,
    connectTimeoutMs: optionalDurationMs(o.connect_timeout) ?? DEFAULTS.connectTimeoutMs,
  };
}
