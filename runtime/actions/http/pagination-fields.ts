// Reading pagination fields: numbers may arrive as numeric strings (interpolated markers).
type Fields = Record<string, unknown>;

/** An integer >= min, or `dflt` when unset. */
export function num(p: Fields, key: string, dflt: number, min: number): number {
  return optionalNum(p, key, min) ?? dflt;
}

export function optionalNum(p: Fields, key: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const v = p[key];
  if (v === undefined || v === null) return undefined;
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new Error(`pagination.${key} must be an integer ${max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`}`);
  }
  return n;
}

export function str(p: Fields, key: string): string {
  const v = p[key];
  if (typeof v !== 'string' || v === '') throw new Error(`pagination.${key} must be a non-empty string`);
  return v;
}

/** A response path: `data.items`, `meta.0.next`; a leading `$.` or `.` is allowed. */
export function pathOf(p: Fields, key: string): string[] | undefined {
  if (p[key] === undefined || p[key] === null) return undefined;
  return str(p, key).replace(/^\$?\./, '').split('.');
}
