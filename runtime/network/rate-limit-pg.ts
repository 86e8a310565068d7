// Rate-limit counters shared by every node through Postgres: one upsert per request, counted in the
// database so concurrent nodes cannot both take the last slot. Old windows are swept now and then.
import type { Pool } from 'pg';
import { createUnderLock } from '../store/pg-create.ts';
import { quoteSchema } from '../store/pg-schema.ts';
import { verdict, windowOf, type RateLimiter } from './rate-limit.ts';

export async function postgresLimiter(pool: Pool, schema: string): Promise<RateLimiter> {
  const t = `${quoteSchema(schema)}.rate_limits`;
  await createUnderLock(pool, t, [
    `CREATE SCHEMA IF NOT EXISTS ${quoteSchema(schema)}`,
    `CREATE TABLE IF NOT EXISTS ${t} (scope text NOT NULL, key text NOT NULL, window_start bigint NOT NULL, window_end bigint NOT NULL, count integer NOT NULL, PRIMARY KEY (scope, key, window_start))`,
  ]);
  let lastSweep = 0;
  return {
    async hit(scope, key, limit, windowMs, now) {
      const start = windowOf(now, windowMs);
      const r = await pool.query<{ count: number }>(
        `INSERT INTO ${t} (scope, key, window_start, window_end, count) VALUES ($1, $2, $3, $4, 1)
         ON CONFLICT (scope, key, window_start) DO UPDATE SET count = ${t}.count + 1 RETURNING count`, [scope, key, start, start + windowMs]);
      if (now - lastSweep > 60_000) {
        lastSweep = now;
        void pool.query(`DELETE FROM ${t} WHERE window_end <= $1`, [now]).catch(() => {});
      }
      return verdict(r.rows[0]!.count, limit, start, windowMs, now);
    },
  };
}
