// Durations in configs: a number is milliseconds; a string is a number with a unit suffix.
// General enough to move to a shared module once other kinds need it.
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `250` → 250, `'500ms'` → 500, `'2s'` → 2000, `'1.5m'` → 90000; a bare numeric string is ms. Throws on anything else. */
export function parseDuration(v: unknown): number {
  if (typeof v === 'number') {
    if (Number.isFinite(v) && v >= 0) return v;
    throw new Error(`invalid duration ${v}: must be a non-negative number of milliseconds`);
  }
  if (typeof v === 'string') {
    const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/i.exec(v);
    if (m) return Math.round(Number(m[1]) * UNIT_MS[(m[2] ?? 'ms').toLowerCase()]);
  }
  throw new Error(`invalid duration ${JSON.stringify(v)}: expected milliseconds or a string like 500ms, 2s, 1m, 1h, 1d`);
}
