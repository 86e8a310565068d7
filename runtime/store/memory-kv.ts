// Key/value state and only_new sets in memory. Single-threaded JS makes every method atomic: none
// awaits between reading and writing. Expired entries are dropped when touched (lazily).
import { copy, expiresAt, greater, jsonText, newestFirst } from './compare.ts';

interface Entry { json: string; expiresAt?: number }
interface Seen { seenAt: number; expiresAt?: number }

/** (ns, key) as one unambiguous map key. */
const pair = (ns: string, key: string): string => JSON.stringify([ns, key]);
const live = (e: { expiresAt?: number } | undefined, now: number): boolean => e !== undefined && (e.expiresAt === undefined || e.expiresAt > now);

export class MemoryKv {
  private readonly values = new Map<string, Entry>();
  private readonly seen = new Map<string, Map<string, Seen>>();

  private current(ns: string, key: string, now: number): Entry | undefined {
    const k = pair(ns, key);
    const e = this.values.get(k);
    if (live(e, now)) return e;
    this.values.delete(k);
    return undefined;
  }

  private put(ns: string, key: string, value: unknown, exp: number | undefined): void {
    this.values.set(pair(ns, key), { json: jsonText(value), ...(exp !== undefined ? { expiresAt: exp } : {}) });
  }

  get(ns: string, keys: string[], now: number): Record<string, unknown> {
    const out: Record<string, unknown> = Object.create(null);
    for (const key of keys) {
      const e = this.current(ns, key, now);
      if (e) out[key] = JSON.parse(e.json);
    }
    return out;
  }

  set(ns: string, key: string, value: unknown, ttlMs: number | undefined, now: number): void {
    this.put(ns, key, value, expiresAt(ttlMs, now));
  }

  advance(ns: string, key: string, value: unknown, ttlMs: number | undefined, now: number): { advanced: boolean; value: unknown } {
    const e = this.current(ns, key, now);
    const cur = e ? JSON.parse(e.json) : null;
    // null never advances (an empty page must not reset a cursor); an absent key takes any value.
    if (value === null || value === undefined || (e && !greater(copy(value), cur))) return { advanced: false, value: cur };
    this.put(ns, key, value, expiresAt(ttlMs, now));
    return { advanced: true, value: copy(value) };
  }

  increment(ns: string, key: string, by: number, ttlMs: number | undefined, now: number): number {
    const e = this.current(ns, key, now);
    const cur = e ? JSON.parse(e.json) : 0;
    if (typeof cur !== 'number') throw new Error(`state key "${key}" holds ${typeof cur === 'string' ? 'a string' : jsonText(cur)}, not a number: it cannot be incremented`);
    const next = cur + by;
    // The ttl starts a window when the counter is created; later increments keep its expiry.
    this.values.set(pair(ns, key), { json: jsonText(next), ...(e ? (e.expiresAt !== undefined ? { expiresAt: e.expiresAt } : {}) : ttlMs !== undefined ? { expiresAt: now + ttlMs } : {}) });
    return next;
  }

  delete(ns: string, key: string): boolean {
    return this.values.delete(pair(ns, key));
  }

  markSeen(ns: string, key: string, ids: string[], ttlMs: number | undefined, cap: number, now: number): Set<string> {
    const k = pair(ns, key);
    let set = this.seen.get(k);
    if (!set) this.seen.set(k, (set = new Map()));
    const fresh = new Set<string>();
    const exp = expiresAt(ttlMs, now);
    for (const id of ids) {
      if (fresh.has(id) || live(set.get(id), now)) continue;
      fresh.add(id);
      set.set(id, { seenAt: now, ...(exp !== undefined ? { expiresAt: exp } : {}) });
    }
    if (ttlMs !== undefined) {
      for (const [id, s] of set) if (!live(s, now)) set.delete(id);
    } else if (set.size > cap) {
      const order = [...set].map(([id, s]): [string, number] => [id, s.seenAt]).sort(newestFirst);
      for (const [id] of order.slice(cap)) set.delete(id);
    }
    return fresh;
  }
}
