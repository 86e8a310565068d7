// String builtins: split, startswith, endswith, ltrimstr, rtrimstr, ascii_downcase, ascii_upcase.
import { fail, fail1 } from './errors.ts';
import { hasAstral } from './access.ts';
import { utf8 } from './text.ts';

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

export function explode(v: unknown): number[] {
  if (typeof v !== 'string') fail('explode input must be a string');
  return Array.from(v, (c) => c.codePointAt(0)!);
}

export function implode(v: unknown): string {
  if (!Array.isArray(v)) fail('implode input must be an array');
  let s = '';
  for (const n of v) {
    if (typeof n !== 'number' || n !== n) fail1(n, "can't be imploded, unicode codepoint needs to be numeric");
    let c = Math.trunc(n);
    if (c < 0 || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) c = 0xfffd;
    s += String.fromCodePoint(c);
  }
  return s;
}

// jvp_codepoint_is_whitespace
const WS = '[\\u0009-\\u000d\\u0020\\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const LEFT = new RegExp(`^${WS}+`);
const RIGHT = new RegExp(`${WS}+$`);

function trimInput(v: unknown): string {
  if (typeof v !== 'string') fail('trim input must be a string');
  return v;
}
export const trim = (v: unknown): string => trimInput(v).replace(LEFT, '').replace(RIGHT, '');
export const ltrim = (v: unknown): string => trimInput(v).replace(LEFT, '');
export const rtrim = (v: unknown): string => trimInput(v).replace(RIGHT, '');

export function utf8bytelength(v: unknown): number {
  if (typeof v !== 'string') fail1(v, 'only strings have UTF-8 byte length');
  return utf8.encode(v).length;
}

/** `_strindices`: code point offsets of every (overlapping) occurrence. */
export function strindices(v: unknown, k: unknown): number[] {
  if (typeof v !== 'string') fail1(v, 'cannot be searched, as it is not a string');
  if (typeof k !== 'string') fail1(k, 'is not a string');
  const r: number[] = [];
  if (k === '') return r;
  if (!hasAstral(v)) {
    for (let i = v.indexOf(k); i >= 0; i = v.indexOf(k, i + 1)) r.push(i);
    return r;
  }
  // An offset in code points is the UTF-16 offset less the surrogate pairs wholly before it; they are
  // counted in one pass as the matches move right, not again from the start for each match.
  let seen = 0;
  let pairs = 0;
  for (let i = v.indexOf(k); i >= 0; i = v.indexOf(k, i + 1)) {
    for (; seen < i; seen++) if (seen > 0 && isLowSurrogate(v.charCodeAt(seen)) && isHighSurrogate(v.charCodeAt(seen - 1))) pairs++;
    r.push(i - pairs);
  }
  return r;
}

const isHighSurrogate = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLowSurrogate = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

export function toboolean(v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  fail1(v, 'cannot be parsed as a boolean');
}
