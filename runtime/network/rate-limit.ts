// Fixed-window request counters per (scope, client key). In memory for one node; in Postgres
// (rate-limit-pg.ts) when several nodes share SERVICE__DATABASE_URL, so the limit holds across them.
export interface Verdict { ok: boolean; retryAfterSec: number }

export interface RateLimiter {
  hit(scope: string, key: string, limit: number, windowMs: number, now: number): Promise<Verdict>;
}

export const windowOf = (now: number, windowMs: number) => Math.floor(now / windowMs) * windowMs;
export const verdict = (count: number, limit: number, start: number, windowMs: number, now: number): Verdict =>
  ({ ok: count <= limit, retryAfterSec: Math.max(1, Math.ceil((start + windowMs - now) / 1000)) });

/** Bounded: past `maxKeys` clients, stale windows are dropped, then the oldest entries. */
export function memoryLimiter(maxKeys = 100_000): RateLimiter {
  const counts = new Map<string, { start: number; count: number; windowMs: number }>();
  const prune = (now: number) => {
    for (const [k, v] of counts) if (v.start + v.windowMs <= now) counts.delete(k);
    for (const k of counts.keys()) { if (counts.size < maxKeys) break; counts.delete(k); }
  };
  return {
    async hit(scope, key, limit, windowMs, now) {
      const id = `${scope}\u0000${key}`;
      const start = windowOf(now, windowMs);
      let c = counts.get(id);
      if (!c || c.start !== start) {
        if (!c && counts.size >= maxKeys) prune(now);
        c = { start, count: 0, windowMs };
        counts.delete(id);
        counts.set(id, c);
      }
      c.count++;
      return verdict(c.count, limit, start, windowMs, now);
    },
  };
}
