// `contains` (jq 1.8's jv_contains): objects by key, arrays by any-element, strings by substring.
import { fail, fail2 } from './errors.ts';
import { eq } from './compare.ts';
import { isObject } from './values.ts';

const MAX_CONTAINS_DEPTH = 10_000;

/** jq kinds: true and false are different kinds here (jv_get_kind). */
const kind = (v: unknown): string => (v === true ? 'true' : v === false ? 'false' : v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

function within(a: unknown, b: unknown, depth: number): boolean {
  if (depth > MAX_CONTAINS_DEPTH) fail('Containment check too deep');
  if (kind(a) !== kind(b)) return false;
  if (isObject(a)) {
    const bo = b as Record<string, unknown>;
    return Object.keys(bo).every((k) => Object.hasOwn(a, k) && within(a[k], bo[k], depth + 1));
  }
  if (Array.isArray(a)) return (b as unknown[]).every((y) => a.some((x) => within(x, y, depth + 1)));
  if (typeof a === 'string') return a.includes(b as string);
  return eq(a, b);
}

export function contains(a: unknown, b: unknown): boolean {
  if (kind(a) !== kind(b)) fail2(a, b, 'cannot have their containment checked');
  return within(a, b, 0);
}
