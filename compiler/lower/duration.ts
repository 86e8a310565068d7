// Durations in configs: a number of milliseconds or text such as 500ms, 2s, 1m, 2h, 7d.
const UNIT: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function durationMs(v: unknown): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'number' && v >= 0) return v;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(String(v));
  if (!m) throw new Error(`"${String(v)}" is not a duration (use milliseconds or 500ms, 2s, 1m, 2h, 7d)`);
  return Number(m[1]) * UNIT[m[2] ?? 'ms']!;
}
