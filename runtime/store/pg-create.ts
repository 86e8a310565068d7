// CREATE ... IF NOT EXISTS run by nodes starting together races in the catalog (a unique violation
// in pg_type, or "type already exists"): each set of statements runs one node at a time, under a
// transaction-scoped advisory lock named for what it creates.
import type { Pool } from 'pg';

export async function createUnderLock(pool: Pool, lock: string, statements: string[]): Promise<void> {
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [lock]);
    for (const sql of statements) await c.query(sql);
    await c.query('COMMIT');
  } catch (e) {
    await c.query('ROLLBACK').catch(() => {});
    throw e;
  } finally {
    c.release();
  }
}
