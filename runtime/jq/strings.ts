// String builtins: split, startswith, endswith, ltrimstr, rtrimstr, ascii_downcase, ascii_upcase.
import { fail } from './errors.ts';

export function split(v: unknown, sep: unknown): string[] {
  if (typeof v !== 'string' || typeof sep !== 'string') fail('split input and separator must be strings');
  if (v === '') return [];
  return sep === '' ? Array.from(v) : v.split(sep);
}

export function startswith(v: unknown, p: unknown): boolean {
  if (typeof v !== 'string' || typeof p !== 'string') fail('startswith() requires string inputs');
  return v.startsWith(p);
}

export function endswith(v: unknown, p: unknown): boolean {
  if (typeof v !== 'string' || typeof p !== 'string') fail('endswith() requires string inputs');
  return v.endsWith(p);
}

// jq 1.8: def ltrimstr($left): if startswith($left) then .[$left | length:] end; (so non-strings fail)
export function ltrimstr(v: unknown, p: unknown): unknown {
  return startswith(v, p) ? (v as string).slice((p as string).length) : v;
}

export function rtrimstr(v: unknown, p: unknown): unknown {
  return endswith(v, p) ? (v as string).slice(0, (v as string).length - (p as string).length) : v;
}

export function asciiDowncase(v: unknown): string {
  if (typeof v !== 'string') fail('explode input must be a string');
  return v.replace(/[A-Z]+/g, (s) => s.toLowerCase());
}

export function asciiUpcase(v: unknown): string {
  if (typeof v !== 'string') fail('explode input must be a string');
  return v.replace(/[a-z]+/g, (s) => s.toUpperCase());
}
