// NetworkPolicy services for a serving process, from the environment: geo/ASN databases, rate-limit
// counters in Postgres when the store is (shared by every node), else in memory; trusted proxies.
import { openGeo } from '../network/geo.ts';
import { memoryLimiter } from '../network/rate-limit.ts';
import { postgresLimiter } from '../network/rate-limit-pg.ts';
import type { Store } from '../store-types.ts';
import type { PostgresStore } from '../store/postgres.ts';
import { StartupError } from './auth/settings.ts';
import type { NetworkOptions } from './gate-hooks.ts';

export async function networkFromEnv(env: Record<string, string | undefined>, store: Store): Promise<NetworkOptions> {
  let geo;
  try { geo = await openGeo(env); } catch (e) { throw new StartupError(`cannot read the geo database: ${(e as Error).message}`); }
  // By shape, not class: after a fast-path reload the store was made by the previous bundle's runtime.
  const pool = (store as Partial<Pick<PostgresStore, 'pool'>>).pool;
  const limiter = store.durable && pool
    ? await postgresLimiter(pool, env.SERVICE__DATABASE_SCHEMA || 'pipewright')
    : memoryLimiter();
  return { geo, limiter, ...(env.SERVICE__TRUSTED_PROXIES ? { trustedProxies: env.SERVICE__TRUSTED_PROXIES } : {}) };
}
