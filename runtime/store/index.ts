// Picks the store for this process: Postgres when SERVICE__DATABASE_URL is set, else memory.
import { MemoryStore } from './memory.ts';
import { PostgresStore } from './postgres.ts';
import type { Store } from '../store-types.ts';

export { MemoryStore } from './memory.ts';
export { PostgresStore } from './postgres.ts';
export type { Store } from '../store-types.ts';

/** Opens and initialises (creates or migrates) the store. `SERVICE__DATABASE_SCHEMA` names the
 *  Postgres schema (default `pipewright`), so several deployments can share one database. */
export async function openStore(env: Record<string, string | undefined> = process.env): Promise<Store> {
  const url = env.SERVICE__DATABASE_URL;
  const store: Store = url
    ? new PostgresStore({ url, ...(env.SERVICE__DATABASE_SCHEMA ? { schema: env.SERVICE__DATABASE_SCHEMA } : {}), ...(env.SERVICE__LEASE_SECS ? { leaseMs: Number(env.SERVICE__LEASE_SECS) * 1000 } : {}) })
    : new MemoryStore();
  try {
    await store.init();
  } catch (e) {
    await store.close().catch(() => {});
    throw e;
  }
  return store;
}
