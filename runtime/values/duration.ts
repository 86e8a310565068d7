// Durations in configs: a number is milliseconds; text is one or more number+unit parts such as
// 500ms, 2s, 1.5m, 2h, 7d or 1h30m (a bare numeric string is milliseconds). One parser for every kind.
const UNIT: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const WHOLE = /^\s*(?:\d+(?:\.\d+)?\s*(?:ms|s|m|h|d)\s*)+$/i;
const PART = /(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)/gi;

/** Required durations: a missing or malformed one is an error with the accepted forms. */
export function durationMs(v: unknown): number {
  const ms = optionalDurationMs(v);
  if (ms === undefined) throw new Error(`invalid duration ${String(v)}: a duration is required (milliseconds, or text such as 500ms, 2s, 1m, 2h, 7d)`);
  return ms;
}

export function optionalDurationMs(v: unknown): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return v;
  if (typeof v === 'string' && /^\s*\d+(?:\.\d+)?\s*$/.test(v)) return Number(v);
  if (typeof v === 'string' && WHOLE.test(v)) {
    let ms = 0;
    for (const m of v.matchAll(PART)) ms += Number(m[1]) * UNIT[m[2]!.toLowerCase()]!;
    return Math.round(ms);
  }
  throw new Error(`invalid duration ${JSON.stringify(v)}: expected milliseconds or text such as 500ms, 2s, 1m, 2h, 7d, 1h30m`);
}
