// jq's arithmetic operators (+ - * / % and unary -) across types, with jq's error texts.
import { fail, fail1, fail2 } from './errors.ts';
import { eq } from './compare.ts';
import { split } from './strings.ts';
import { isObject, put, type Obj } from './values.ts';
import { copyRecord } from '../values/build.ts';
import { sized } from './bounds.ts';

const hasOwn = Object.hasOwn;

// jq prints an infinite result as ±DBL_MAX, and that is what the engine returns: keep outputs identical.
const MAX = Number.MAX_VALUE;
const finite = (r: number): number => (r === Infinity ? MAX : r === -Infinity ? -MAX : r);

export function add(a: unknown, b: unknown): unknown {
  if (typeof a === 'number' && typeof b === 'number') return finite(a + b);
  if (a === null) return b;
  if (b === null) return a;
  if (typeof a === 'string' && typeof b === 'string') return a + b;
  if (Array.isArray(a) && Array.isArray(b)) {
    sized(a.length + b.length); // doubling an array in a reduce grows it past any bound in a few steps
    return a.concat(b);
  }
  if (isObject(a) && isObject(b)) return merged(a, b);
  fail2(a, b, 'cannot be added');
}

export function sub(a: unknown, b: unknown): unknown {
  if (typeof a === 'number' && typeof b === 'number') return finite(a - b);
  if (Array.isArray(a) && Array.isArray(b)) return a.filter((x) => !b.some((y) => eq(x, y)));
  fail2(a, b, 'cannot be subtracted');
}

/** `{ ...a, ...b }`, built on a copy that stays fast to extend (values/build.ts): the spread form
 *  costs about 1 µs a call on node 20, and jq adds objects once per element. */
function merged(a: Obj, b: Obj): Obj {
  const r = copyRecord(a);
  for (const k of Object.keys(b)) put(r, k, b[k]);
  return r;
}

function deepMerge(a: Obj, b: Obj): Obj {
  const r = copyRecord(a);
  for (const k of Object.keys(b)) {
    const x = hasOwn(r, k) ? r[k] : undefined;
    const y = b[k];
    put(r, k, isObject(x) && isObject(y) ? deepMerge(x, y) : y);
  }
  return r;
}

function repeat(s: string, n: number): string | null {
  if (n < 0 || n !== n) return null;
  const times = Math.trunc(Math.min(n, 2147483647));
  if (s.length * times > 2 ** 29) fail('Repeat string result too long'); // beyond JS strings (jq 1.8's text)
  return s.repeat(times);
}

export function mul(a: unknown, b: unknown): unknown {
  if (typeof a === 'number' && typeof b === 'number') return finite(a * b);
  if (typeof a === 'string' && typeof b === 'number') return repeat(a, b);
  if (typeof a === 'number' && typeof b === 'string') return repeat(b, a);
  if (isObject(a) && isObject(b)) return deepMerge(a, b);
  fail2(a, b, 'cannot be multiplied');
}

export function div(a: unknown, b: unknown): unknown {
  if (typeof a === 'number' && typeof b === 'number') {
    if (b === 0) fail2(a, b, 'cannot be divided because the divisor is zero');
    return finite(a / b);
  }
  if (typeof a === 'string' && typeof b === 'string') return split(a, b);
  fail2(a, b, 'cannot be divided');
}

const INT_MAX = 9223372036854775807n;
const INT_MIN = -9223372036854775808n;

/** C's (intmax_t) conversion, saturating like jq's dtoi. */
function dtoi(n: number): bigint {
  if (n >= 9223372036854775807) return INT_MAX;
  if (n <= -9223372036854775808) return INT_MIN;
  return BigInt(Math.trunc(n));
}

export function mod(a: unknown, b: unknown): unknown {
  if (typeof a !== 'number' || typeof b !== 'number') fail2(a, b, 'cannot be divided (remainder)');
  if (a !== a || b !== b) return NaN;
  const safe = Math.abs(a) < 9007199254740992 && Math.abs(b) < 9007199254740992;
  if (safe) {
    const bi = Math.trunc(b);
    if (bi === 0) fail2(a, b, 'cannot be divided (remainder) because the divisor is zero');
    return bi === -1 ? 0 : (Math.trunc(a) % bi) + 0; // + 0: C's integer % never yields -0
  }
  const bi = dtoi(b);
  if (bi === 0n) fail2(a, b, 'cannot be divided (remainder) because the divisor is zero');
  return bi === -1n ? 0 : Number(dtoi(a) % bi);
}

export function neg(v: unknown): number {
  // jq 1.8 negates a literal (input or program) zero to 0; only a computed zero becomes -0.
  if (typeof v === 'number') return v === 0 ? 0 : -v;
  fail1(v, 'cannot be negated');
}

/** `-(a op b)`: the negation of a computed number (a computed zero becomes -0). */
export function negComputed(v: unknown): number {
  if (typeof v === 'number') return -v;
  fail1(v, 'cannot be negated');
}
