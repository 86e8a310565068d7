// One driver (pool) per database in the process, shared by every action and config that uses the
// same connection string and settings; a pool whose connect failed is closed and forgotten, so a
// wrong password or a dead host leaves nothing behind. Closed on shutdown.
// Bounded (SERVICE__DATABASE_MAX_POOLS, 20): a connection string can vary per request, and each
// pool keeps its connections open while idle. Opening one more closes the least recently used pool
// that has no statement under way; when every pool is busy the new database is refused (503).
import { mysqlDriver } from './mysql.ts';
import { postgresDriver } from './postgres.ts';
import { dialectOf } from './url.ts';
import type { DbSettings, Driver, QueryOptions } from './types.ts';
import { numberSetting } from '../../values/number-setting.ts';
import { Refused } from '../../refused.ts';

export const DEFAULT_MAX_POOLS = 20;

/** SERVICE__DATABASE_MAX_POOLS: a whole number from 1 to 1000 (the start checks it: runtime/server/main.ts). */
export const maxPools = (env: Record<string, string | undefined> = process.env): number =>
  numberSetting(env, 'SERVICE__DATABASE_MAX_POOLS', DEFAULT_MAX_POOLS, { min: 1, max: 1000, whole: true });

interface Entry { driver: Driver; busy: number; used: number; named: Map<string, Driver> }

const pools = new Map<string, Entry>();
let tick = 0;

export function driverFor(db: DbSettings): Driver {
  const key = `${db.url}\n${db.poolSize}\n${db.statementTimeoutMs}\n${db.connectTimeoutMs}`;
  let e = pools.get(key);
  if (!e) {
    const dialect = dialectOf(db.url);
    makeRoom(db);
    const forget = () => {
      if (pools.get(key) !== e) return;
      pools.delete(key);
      void e!.driver.close().catch(() => {});
    };
    const d = dialect === 'postgres' ? postgresDriver(db, forget) : mysqlDriver(db, forget);
    const entry: Entry = { busy: 0, used: 0, named: new Map(), driver: { ...d, query: (text, params, o) => counted(entry, d, text, params, o) } };
    pools.set(key, (e = entry));
  }
  e.used = ++tick;
  // Messages name the database as the caller's config does (the pool is shared across configs).
  let named = e.named.get(db.label);
  if (!named) {
    const shared = e.driver;
    named = { ...shared, query: (text, params, o) => shared.query(text, params, { ...o, label: db.label }) };
    e.named.set(db.label, named);
  }
  return named;
}

/** The statement counted while under way: a pool with one is not closed to make room. */
function counted(e: Entry, d: Driver, text: string, params: readonly unknown[], o: QueryOptions) {
  e.busy++;
  e.used = ++tick;
  return d.query(text, params, o).then((r) => { e.busy--; return r; }, (err: unknown) => { e.busy--; throw err; });
}

/** At the cap: close the least recently used idle pool, or refuse when all are busy. */
function makeRoom(db: DbSettings): void {
  const cap = maxPools();
  while (pools.size >= cap) {
    let oldest: [string, Entry] | undefined;
    for (const kv of pools) if (kv[1].busy === 0 && (!oldest || kv[1].used < oldest[1].used)) oldest = kv;
    if (!oldest) throw new Refused(`database "${db.label}": ${cap} database pools are open and each has a statement under way (SERVICE__DATABASE_MAX_POOLS); try again later`, 503);
    pools.delete(oldest[0]);
    void oldest[1].driver.close().catch(() => {});
  }
}

/** How many pools are open (tests check that failures leave none behind). */
export const openPools = (): number => pools.size;

export async function closeDatabasePools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.allSettled(all.map((e) => e.driver.close()));
}
