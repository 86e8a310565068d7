// jq's total order and equality: null < false < true < numbers < strings < arrays < objects.
import { type } from './text.ts';
import type { Obj } from './values.ts';

const ORDER: Record<string, number> = { null: 0, boolean: 1, number: 3, string: 4, array: 5, object: 6 };

function rank(v: unknown): number {
  return v === true ? 2 : ORDER[type(v)];
}

/** Compares strings by code point (jq compares UTF-8 bytes), not by UTF-16 unit. */
export function cmpStr(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (astral code points) sort after every BMP unit.
    if (x >= 0xd800) x += x < 0xe000 ? 0x2000 : -0x800;
    if (y >= 0xd800) y += y < 0xe000 ? 0x2000 : -0x800;
    return x < y ? -1 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

export function sortedKeys(o: Obj): string[] {
  return Object.keys(o).sort(cmpStr);
}

/** jq's total order: null < false < true < numbers < strings < arrays < objects. */
export function cmp(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') {
    if (a !== a) return -1; // nan sorts below every number (jq compares it as null)
    if (b !== b) return 1;
    return a < b ? -1 : a === b ? 0 : 1;
  }
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if (typeof a === 'string') return cmpStr(a, b as string);
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    const n = Math.min(a.length, bb.length);
    for (let i = 0; i < n; i++) {
      const c = cmp(a[i], bb[i]);
      if (c) return c;
    }
    return a.length < bb.length ? -1 : a.length > bb.length ? 1 : 0;
  }
  if (ra === 6) {
    const ka = sortedKeys(a as Obj);
    const kb = sortedKeys(b as Obj);
    const c = cmp(ka, kb);
    if (c) return c;
    for (const k of ka) {
      const d = cmp((a as Obj)[k], (b as Obj)[k]);
      if (d) return d;
    }
  }
  return 0;
}

/** A comparator for many values: plain < for all-number or all-string lists, else cmp. */
export function comparatorFor(values: unknown[]): (a: unknown, b: unknown) => number {
  if (values.every((x) => typeof x === 'number' && x === x)) return (a, b) => ((a as number) < (b as number) ? -1 : a === b ? 0 : 1);
  if (values.every((x) => typeof x === 'string')) return cmpStr as (a: unknown, b: unknown) => number;
  return cmp;
}

export function eq(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return cmp(a, b) === 0;
}
export const ne = (a: unknown, b: unknown): boolean => !eq(a, b);
export const lt = (a: unknown, b: unknown): boolean => cmp(a, b) < 0;
export const le = (a: unknown, b: unknown): boolean => cmp(a, b) <= 0;
export const gt = (a: unknown, b: unknown): boolean => cmp(a, b) > 0;
export const ge = (a: unknown, b: unknown): boolean => cmp(a, b) >= 0;
