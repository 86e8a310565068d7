// One keep-alive undici Pool per origin (and connect timeout, a per-connection setting), reused by
// every run in the process. Kept here rather than in Services so the HTTP kind owns its lifecycle.
import { Pool } from 'undici';

const pools = new Map<string, Pool>();

/** The shared pool for `origin`; `connectTimeoutMs` undefined means undici's default (10 s). */
export function getPool(origin: string, connectTimeoutMs?: number): Pool {
  const key = `${origin} ${connectTimeoutMs ?? ''}`;
  let pool = pools.get(key);
  if (!pool || pool.closed || pool.destroyed) {
    pool = new Pool(origin, connectTimeoutMs === undefined ? {} : { connect: { timeout: connectTimeoutMs } });
    pools.set(key, pool);
  }
  return pool;
}

/**
 * Close every pool and forget them; for shutdown and tests. In-flight requests get `graceMs` to
 * finish, then sockets are destroyed: a request abandoned while its connect hangs stays queued
 * until the connect timeout, and shutdown should not wait for that.
 */
export async function closeHttpPools(graceMs = 1000): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.allSettled(all.map(async (p) => {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'expired'>((r) => { timer = setTimeout(() => r('expired'), graceMs); });
    const result = await Promise.race([p.close().then(() => 'closed' as const), expired]);
    clearTimeout(timer);
    if (result === 'expired') await p.destroy();
  }));
}
