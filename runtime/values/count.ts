// `count(...)`: one implementation for both paths.

/**
 * `count(<expr>)`: array length, string length in characters (code points, so an emoji is 1, as
 * an author counts), object key count; null, undefined, numbers and booleans are 0 (not a
 * collection, so `count(x) > 0` never claims items that are not there).
 */
export function countOf(v: unknown): number {
  if (Array.isArray(v)) return v.length;
  if (typeof v === 'string') {
    let n = 0;
    for (const _ of v) n++;
    return n;
  }
  return v !== null && typeof v === 'object' ? Object.keys(v).length : 0;
}
