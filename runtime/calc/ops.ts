// The semantics of math expressions. Generated code calls these as `calc.<name>` and the
// interpreter's closures call the very same functions, so both paths compute identical results.
// Rule of thumb: numbers and numeric strings are numbers; anything else in arithmetic is NaN,
// and a NaN or infinite final result becomes null (JSON has neither).
import { deepEqual } from '../values/equal.ts';
import { toNumber } from './num.ts';
import { roundDecimal } from './round.ts';

/** Own-property read of target.<path>; arrays are read by index only (no `length`). */
export function get(target: unknown, ...path: Array<string | number>): unknown {
  let cur = target;
  for (const seg of path) cur = field(cur, seg);
  return cur;
}

/** One step of `get`: generated code calls it directly for a single field (no rest array). */
export function field(target: unknown, seg: string | number): unknown {
  if (target === null || typeof target !== 'object') return undefined;
  if (Array.isArray(target)) {
    const i = typeof seg === 'number' ? seg : /^\d+$/.test(seg) ? Number(seg) : -1;
    return i >= 0 && i < target.length ? target[i] : undefined;
  }
  return Object.hasOwn(target, seg) ? (target as Record<string, unknown>)[seg] : undefined;
}

const num = toNumber;
const bothNumeric = (a: unknown, b: unknown) => !Number.isNaN(num(a)) && !Number.isNaN(num(b));

/** Adds numbers or numeric strings; otherwise concatenates if either side is a string. */
export const add = (a: unknown, b: unknown): unknown =>
  bothNumeric(a, b) ? num(a) + num(b) : typeof a === 'string' || typeof b === 'string' ? concat(a, b) : NaN;
export const concat = (a: unknown, b: unknown): string => str(a) + str(b);
export const sub = (a: unknown, b: unknown): number => num(a) - num(b);
export const mul = (a: unknown, b: unknown): number => num(a) * num(b);
export const div = (a: unknown, b: unknown): number => num(a) / num(b);
export const mod = (a: unknown, b: unknown): number => num(a) % num(b);
export const pow = (a: unknown, b: unknown): number => num(a) ** num(b);
export const neg = (a: unknown): number => -num(a);

/** Equality: numerically when both sides are numeric ("5" == 5), else deep JSON equality. */
export const eq = (a: unknown, b: unknown): boolean => (bothNumeric(a, b) ? num(a) === num(b) : deepEqual(a, b));
export const ne = (a: unknown, b: unknown): boolean => !eq(a, b);
// Ordering: numerically, or by code units when both are non-numeric strings; mixed is false.
function order(a: unknown, b: unknown, f: (x: any, y: any) => boolean): boolean {
  if (bothNumeric(a, b)) return f(num(a), num(b));
  return typeof a === 'string' && typeof b === 'string' ? f(a, b) : false;
}
export const lt = (a: unknown, b: unknown) => order(a, b, (x, y) => x < y);
export const le = (a: unknown, b: unknown) => order(a, b, (x, y) => x <= y);
export const gt = (a: unknown, b: unknown) => order(a, b, (x, y) => x > y);
export const ge = (a: unknown, b: unknown) => order(a, b, (x, y) => x >= y);

/** JavaScript truthiness ("0" and [] are true): used by !, &&, || and ?:. */
export const truthy = (v: unknown): boolean => Boolean(v);
export const not = (a: unknown): boolean => !truthy(a);
// && and || return an operand (so `target.x || 0` supplies a default); the right side is lazy.
export const and = (a: unknown, b: () => unknown): unknown => (truthy(a) ? b() : a);
export const or = (a: unknown, b: () => unknown): unknown => (truthy(a) ? a : b());

/** Text form: null and NaN are "", objects are JSON. */
export function str(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : ''; // String(-0) is "0"
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

// Arrays are flattened one level; reduce (not spread) so a long array cannot overflow the stack.
function extreme(args: unknown[], pick: (x: number, y: number) => number): number {
  const n = args.flatMap((a) => (Array.isArray(a) ? a : [a])).map(num);
  return n.length ? n.reduce(pick) : NaN;
}
export const fn = {
  /** Half away from zero on the decimal value: round(2.5) = 3, round(1.005, 2) = 1.01. */
  round: (x: unknown, places: unknown = 0): number => roundDecimal(num(x), num(places))?.num ?? NaN,
  floor: (x: unknown) => Math.floor(num(x)),
  ceil: (x: unknown) => Math.ceil(num(x)),
  abs: (x: unknown) => Math.abs(num(x)),
  sqrt: (x: unknown) => Math.sqrt(num(x)),
  pow: (a: unknown, b: unknown) => pow(a, b),
  /** min/max take numbers or arrays of numbers; any non-numeric value makes the result NaN. */
  min: (...a: unknown[]) => extreme(a, (x, y) => Math.min(x, y)),
  max: (...a: unknown[]) => extreme(a, (x, y) => Math.max(x, y)),
  number: (x: unknown) => num(x),
  string: (x: unknown) => str(x),
};

/** The final value of an expression, JSON-safe: undefined, NaN and ±Infinity become null; -0 is 0. */
export function fin(v: unknown): unknown {
  if (v === undefined) return null;
  if (typeof v === 'number') return Number.isFinite(v) ? v + 0 : null;
  return v;
}
