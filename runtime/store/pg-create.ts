// Work that must run one node at a time (CREATE ... IF NOT EXISTS races in the catalog between nodes
// starting together: a unique violation in pg_type, or "type already exists"; the schema's
// migrations): one transaction holding a transaction-scoped advisory lock named by `lock`.
import type { Pool, PoolClient } from 'pg';

/** Runs `work` in a transaction under the advisory lock named by one or two texts (Postgres's
 *  one-key and two-key locks, each key a hashtext); rolled back when it throws. */
export async function underLock<T>(pool: Pool, lock: string[], work: (c: PoolClient) => Promise<T>): Promise<T> {
  const c = await pool.connect();
  // A checked-out client whose connection dies emits 'error' (pg emits it even when a query also
  // fails); with no listener that would end the process. The failure reaches us through the query.
  let broken: Error | undefined;
  const onError = (e: Error) => { broken = e; };
  c.on('error', onError);
  try {
    await c.query('BEGIN');
    await c.query(`SELECT pg_advisory_xact_lock(${lock.map((_, i) => `hashtext($${i + 1})`).join(', ')})`, lock);
    const r = await work(c);
    await c.query('COMMIT');
    return r;
  } catch (e) {
    await c.query('ROLLBACK').catch(() => {});
    throw e;
  } finally {
    c.off('error', onError);
    // A broken connection is destroyed, not returned to the pool.
    c.release(broken);
  }
}

export async function createUnderLock(pool: Pool, lock: string, statements: string[]): Promise<void> {
  await underLock(pool, [lock], async (c) => {
    for (const sql of statements) await c.query(sql);
  });
}
