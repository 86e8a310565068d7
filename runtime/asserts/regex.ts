// `regex: <JS RegExp source>`, no flags (a leading "/" is part of the pattern, e.g. "^/api/").
// The actual value is stringified (numbers, booleans, JSON for objects); null/undefined fail,
// since matching a missing value is almost always a config mistake. Patterns are compiled once
// and kept in a bounded cache; an invalid pattern is a failed check, never a crash. Matching is
// linear-time (RE2, runtime/values/regex.ts): a param validated by `^(a+)+$` cannot freeze the server.
import { show } from './json.ts';
import { cachedRegex } from '../values/regex.ts';
import type { AssertOp } from './types.ts';

const compiled = cachedRegex;

const text = (v: unknown): string | undefined =>
  v === null || v === undefined ? undefined : typeof v === 'object' ? JSON.stringify(v) : String(v);

export const op: AssertOp = {
  check(a, e) {
    const re = compiled(String(e)), s = text(a);
    return typeof re !== 'string' && s !== undefined && re.test(s);
  },
  explain(a, e) {
    const re = compiled(String(e));
    if (typeof re === 'string') return re;
    return `expected ${show(a)} to match ${show(String(e))}`;
  },
};

