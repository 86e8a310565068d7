// Helpers for transforms that work on a part of the data (math `target`, filter `target`,
// aggregate fields). A 'path' argument arrives as a getter, not as segments, so the part it
// selected is found again by identity to rebuild the data around its replacement.
import { setOwn } from '../values/build.ts';

/** Reads a dotted field ("price.amount") through own properties only; arrays by index. */
export function getDotted(v: unknown, dotted: string): unknown {
  // One plain field (the usual case): no split, no loop.
  if (!dotted.includes('.')) {
    if (v === null || typeof v !== 'object' || (Array.isArray(v) && !/^\d+$/.test(dotted))) return undefined;
    return Object.hasOwn(v, dotted) ? (v as Record<string, unknown>)[dotted] : undefined;
  }
  let cur = v;
  for (const seg of dotted.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    if (Array.isArray(cur) && !/^\d+$/.test(seg)) return undefined;
    cur = Object.hasOwn(cur, seg) ? (cur as Record<string, unknown>)[seg] : undefined;
  }
  return cur;
}

/**
 * `data` with the object/array `part` (which the getter returned from inside `data`) replaced by
 * `next`, copying only the containers on the way; the input is never mutated. Returns undefined
 * when `part` is not inside `data` (a getter that copies, e.g.).
 */
export function replacePart(data: unknown, part: object, next: unknown): unknown {
  if (data === part) return next;
  const path = find(data, part, new Set());
  if (!path) return undefined;
  const rebuild = (cur: unknown, i: number): unknown => {
    if (i === path.length) return next;
    const k = path[i];
    const copy: any = Array.isArray(cur) ? [...cur] : { ...(cur as object) };
    setOwn(copy, String(k), rebuild((cur as any)[k], i + 1)); // a JSON key "__proto__" stays a plain own field
    return copy;
  };
  return rebuild(data, 0);
}

function find(cur: unknown, part: object, seen: Set<object>): Array<string | number> | undefined {
  if (cur === null || typeof cur !== 'object' || seen.has(cur)) return undefined;
  seen.add(cur);
  const entries: Array<[string | number, unknown]> = Array.isArray(cur) ? cur.map((v, i) => [i, v]) : Object.entries(cur);
  for (const [k, v] of entries) {
    if (v === part) return [k];
    const rest = find(v, part, seen);
    if (rest) return [k, ...rest];
  }
  return undefined;
}
