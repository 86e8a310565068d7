// One driver (pool) per database in the process, shared by every action and config that uses the
// same connection string and settings; a pool whose connect failed is closed and forgotten, so a
// wrong password or a dead host leaves nothing behind. Closed on shutdown.
import { mysqlDriver } from './mysql.ts';
import { postgresDriver } from './postgres.ts';
import { dialectOf } from './url.ts';
import type { DbSettings, Driver } from './types.ts';

const pools = new Map<string, Driver>();

export function driverFor(db: DbSettings): Driver {
  const key = `${db.url}\n${db.poolSize}\n${db.statementTimeoutMs}\n${db.connectTimeoutMs}`;
  let d = pools.get(key);
  if (!d) {
    const dialect = dialectOf(db.url);
    const forget = () => {
      if (pools.get(key) !== d) return;
      pools.delete(key);
      void d!.close().catch(() => {});
    };
    d = dialect === 'postgres' ? postgresDriver(db, forget) : mysqlDriver(db, forget);
    pools.set(key, d);
  }
  return d;
}

/** How many pools are open (tests check that failures leave none behind). */
export const openPools = (): number => pools.size;

export async function closeDatabasePools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.allSettled(all.map((d) => d.close()));
}
