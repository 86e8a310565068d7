// Shared rules of the two stores, so memory and Postgres answer alike.

/** advance: is `next` greater than `current`? Numbers compare as numbers, strings by code point
 *  (Postgres: COLLATE "C" on UTF-8); any other pair is not comparable, so it never advances. */
export function greater(next: unknown, current: unknown): boolean {
  if (typeof next === 'number' && typeof current === 'number') return next > current;
  if (typeof next === 'string' && typeof current === 'string') return Buffer.compare(Buffer.from(next), Buffer.from(current)) > 0;
  return false;
}

/** Why a callback token cannot be claimed. A token claim clears wake_at, a scheduler claim keeps it,
 *  so a run that left suspension tells "resumed by a callback" from "its wait timed out". */
export function tokenRefusal(status: string, wakeAt: number | null, now: number): 'expired' | 'resumed' | 'cancelled' {
  if (status === 'cancelled') return 'cancelled';
  if (status === 'suspended') return 'expired'; // still parked, so its wait passed: the scheduler owns it
  return wakeAt !== null && wakeAt <= now ? 'expired' : 'resumed';
}

/** JSON text of a value to store (undefined stores null, as in a JSON document). */
export const jsonText = (v: unknown): string => JSON.stringify(v ?? null);

/** The copy a store hands out: what a JSON column would give back. */
export const copy = <T>(v: T): T => JSON.parse(jsonText(v)) as T;

export const expiresAt = (ttlMs: number | undefined, now: number): number | undefined => (ttlMs === undefined ? undefined : now + ttlMs);

/** Newest first by (seenAt, id): the only_new cap keeps the first `cap`. */
export function newestFirst(a: [string, number], b: [string, number]): number {
  return b[1] - a[1] || Buffer.compare(Buffer.from(b[0]), Buffer.from(a[0]));
}

/** listCaptures without a limit: the newest 100. */
export const DEFAULT_CAPTURE_LIMIT = 100;

/** Newest first by (startedAt, id), ids by code point (Postgres: COLLATE "C"): the runs list's order. */
export function newerRunFirst(a: { startedAt: string; id: string }, b: { startedAt: string; id: string }): number {
  return a.startedAt === b.startedAt ? (a.id === b.id ? 0 : a.id < b.id ? 1 : -1) : a.startedAt < b.startedAt ? 1 : -1;
}
