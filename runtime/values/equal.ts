// Deep JSON equality: one rule for the assert operators and calc's ==.

/**
 * Deep JSON equality: types must match (5 and "5" differ), object key order is ignored, arrays
 * are ordered. undefined is treated as null and undefined-valued keys as absent, because the
 * values compared came from JSON, where a missing field and null are the same thing to an author.
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || a === undefined || b === null || b === undefined) return a == null && b == null;
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => deepEqual(x, b[i]));
  }
  const ka = definedKeys(a), kb = definedKeys(b);
  if (ka.length !== kb.length) return false;
  const ob = b as Record<string, unknown>;
  return ka.every((k) => Object.hasOwn(ob, k) && deepEqual((a as Record<string, unknown>)[k], ob[k]));
}

function definedKeys(o: object): string[] {
  return Object.keys(o).filter((k) => (o as Record<string, unknown>)[k] !== undefined);
}
