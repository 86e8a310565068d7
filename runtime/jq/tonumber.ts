// `tonumber` as jq 1.8 (with decNumber) has it: the whole string must be a decimal literal, Infinity or
// NaN as decNumber reads them (no spaces, no NUL); anything else "cannot be parsed as a number".
import { JqError } from './errors.ts';
import { dump, type } from './text.ts';

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const INFINITE = /^[+-]?inf(?:inity)?$/i;
const NAN = /^[+-]?s?nan$/i;

export function tonumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    if (NUMBER.test(v)) return Number(v);
    // jq prints these infinities as ±DBL_MAX (an overflowing literal like 1e400 stays infinite).
    if (INFINITE.test(v)) return v.startsWith('-') ? -Number.MAX_VALUE : Number.MAX_VALUE;
    if (NAN.test(v)) return NaN;
  }
  throw new JqError(`${type(v)} (${dump(v)}) cannot be parsed as a number`);
}
