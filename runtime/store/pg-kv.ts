// Key/value state and only_new sets in Postgres. Each write is one statement, so concurrent runs and
// nodes cannot interleave a read and a write. Expired rows count as absent and are overwritten.
import type { Pool } from 'pg';
import { jsonText } from './compare.ts';

const at = (now: number): Date => new Date(now);
const until = (ttlMs: number | undefined, now: number): Date | null => (ttlMs === undefined ? null : new Date(now + ttlMs));
const EXPIRED = `t.expires_at IS NOT NULL AND t.expires_at <= $5`;

export class PgKv {
  constructor(private readonly pool: Pool, private readonly s: string) {}

  async get(ns: string, keys: string[], now: number): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = Object.create(null);
    if (!keys.length) return out;
    const { rows } = await this.pool.query(
      `SELECT key, value FROM ${this.s}.state WHERE ns = $1 AND key = ANY($2::text[]) AND (expires_at IS NULL OR expires_at > $3)`, [ns, keys, at(now)]);
    for (const r of rows) out[r.key] = r.value;
    return out;
  }

  async set(ns: string, key: string, value: unknown, ttlMs: number | undefined, now: number): Promise<void> {
    await this.pool.query(
      `INSERT INTO ${this.s}.state (ns, key, value, expires_at) VALUES ($1, $2, $3::json, $4)
       ON CONFLICT (ns, key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at`, [ns, key, jsonText(value), until(ttlMs, now)]);
  }

  async advance(ns: string, key: string, value: unknown, ttlMs: number | undefined, now: number): Promise<{ advanced: boolean; value: unknown }> {
    if (value !== null && value !== undefined) {
      // CASE fixes the evaluation order: the casts run only on values of the right type (see greater()).
      const { rows } = await this.pool.query(
        `INSERT INTO ${this.s}.state AS t (ns, key, value, expires_at) VALUES ($1, $2, $3::json, $4)
         ON CONFLICT (ns, key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at
         WHERE CASE WHEN ${EXPIRED} THEN true
           WHEN json_typeof(t.value) = 'number' AND json_typeof(EXCLUDED.value) = 'number' THEN t.value::text::float8 < EXCLUDED.value::text::float8
           WHEN json_typeof(t.value) = 'string' AND json_typeof(EXCLUDED.value) = 'string' THEN (t.value #>> '{}') COLLATE "C" < (EXCLUDED.value #>> '{}') COLLATE "C"
           ELSE false END
         RETURNING value`, [ns, key, jsonText(value), until(ttlMs, now), at(now)]);
      if (rows.length) return { advanced: true, value: rows[0].value };
    }
    const cur = await this.get(ns, [key], now);
    return { advanced: false, value: cur[key] ?? null };
  }

  async increment(ns: string, key: string, by: number, ttlMs: number | undefined, now: number): Promise<number> {
    try {
      // A non-number yields NULL, which the NOT NULL column refuses: the statement fails, nothing changes.
      // The ttl starts a window when the counter is created; later increments keep its expiry.
      const { rows } = await this.pool.query(
        `INSERT INTO ${this.s}.state AS t (ns, key, value, expires_at) VALUES ($1, $2, to_json($3::float8), $4)
         ON CONFLICT (ns, key) DO UPDATE SET
           value = CASE WHEN ${EXPIRED} THEN EXCLUDED.value
             WHEN json_typeof(t.value) = 'number' THEN to_json(t.value::text::float8 + $3::float8) END,
           expires_at = CASE WHEN ${EXPIRED} THEN EXCLUDED.expires_at ELSE t.expires_at END
         RETURNING value`, [ns, key, by, until(ttlMs, now), at(now)]);
      return rows[0].value as number;
    } catch (e) {
      if ((e as { code?: string }).code !== '23502') throw e;
      const cur = (await this.get(ns, [key], now))[key];
      throw new Error(`state key "${key}" holds ${typeof cur === 'string' ? 'a string' : jsonText(cur)}, not a number: it cannot be incremented`);
    }
  }

  async delete(ns: string, key: string): Promise<boolean> {
    const r = await this.pool.query(`DELETE FROM ${this.s}.state WHERE ns = $1 AND key = $2`, [ns, key]);
    return (r.rowCount ?? 0) > 0;
  }

  async markSeen(ns: string, key: string, ids: string[], ttlMs: number | undefined, cap: number, now: number): Promise<Set<string>> {
    if (!ids.length) return new Set();
    // One statement: an id is new when absent or expired. Sorted ids make concurrent overlapping pages
    // lock rows in the same order (no deadlock); the second writer of an id waits, then sees it.
    const { rows } = await this.pool.query(
      `INSERT INTO ${this.s}.seen AS t (ns, key, id, seen_at, expires_at)
       SELECT $1, $2, i, $3, $4 FROM (SELECT DISTINCT unnest($6::text[]) COLLATE "C" AS i ORDER BY 1) u
       ON CONFLICT (ns, key, id) DO UPDATE SET seen_at = EXCLUDED.seen_at, expires_at = EXCLUDED.expires_at WHERE ${EXPIRED}
       RETURNING id`, [ns, key, at(now), until(ttlMs, now), at(now), ids]);
    const fresh = new Set<string>(rows.map((r) => r.id as string));
    if (fresh.size) await this.prune(ns, key, ttlMs, cap, now);
    return fresh;
  }

  /** Keeps the newest `cap` ids (no ttl) or drops expired ones. SKIP LOCKED: a concurrent pruner
   *  takes the rows it locked, and no two pruners wait on each other. */
  private async prune(ns: string, key: string, ttlMs: number | undefined, cap: number, now: number): Promise<void> {
    const which = ttlMs === undefined
      ? `ORDER BY seen_at DESC, id COLLATE "C" DESC OFFSET $3`
      : `AND expires_at <= $3`;
    await this.pool.query(
      `WITH old AS MATERIALIZED (SELECT id FROM ${this.s}.seen WHERE ns = $1 AND key = $2 ${which} FOR UPDATE SKIP LOCKED)
       DELETE FROM ${this.s}.seen t USING old WHERE t.ns = $1 AND t.key = $2 AND t.id = old.id`,
      [ns, key, ttlMs === undefined ? cap : at(now)]);
  }
}
