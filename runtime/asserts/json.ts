// JSON value helpers of the assert operators (deep equality is runtime/values/equal.ts, shared with calc).

const MAX_SHOWN = 80;

/** A value as it appears in a failure message: JSON, cut to a readable length. */
export function show(v: unknown): string {
  let s: string | undefined;
  if (typeof v === 'number' || typeof v === 'bigint') s = String(v);
  else if (v === undefined) s = 'undefined';
  else if (typeof v === 'function') s = '[function]';
  else {
    try {
      s = JSON.stringify(v);
    } catch {
      s = String(v); // circular: cannot come from JSON, but never crash a message
    }
  }
  s ??= String(v);
  return s.length > MAX_SHOWN ? `${s.slice(0, MAX_SHOWN - 1)}…` : s;
}

/** The JSON type name used by is_type: undefined counts as null. */
export function typeName(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  return Array.isArray(v) ? 'array' : typeof v;
}
