// Every regex a config supplies (assert/param `regex`, extract_with_regex, replace_values, discover
// filters, JSON Schema patterns of MCP tool arguments) runs on RE2 (re2js, pure JS): matching time is
// linear in the input, so no pattern can freeze the server the way `^(a+)+$` does on a backtracking
// engine. The syntax is JavaScript's minus what needs backtracking (backreferences, lookaround); those are refused at check time.
import { RE2JS } from 're2js';

export interface LinearRegex {
  /** Capture groups in the pattern. */
  readonly groups: number;
  test(s: string): boolean;
  /** Whether the whole string matches (not just a part of it). */
  matches(s: string): boolean;
  /** The first match and its groups (undefined for a group that took no part), or null. */
  exec(s: string): (string | undefined)[] | null;
  /** Every match replaced, `$1`/`$&`/`$<name>` expanded as String.prototype.replace does. */
  replaceAll(s: string, replacement: string): string;
}

export class RegexError extends Error {}

const HINT = 'config regexes run on a linear-time (RE2) engine: backreferences (\\1) and lookaround ((?=, (?!, (?<=, (?<!) are not supported';

/** Compiles a config regex; a pattern RE2 cannot run throws RegexError saying why. */
export function compileRegex(pattern: string): LinearRegex {
  let re: RE2JS;
  try {
    re = RE2JS.compile(RE2JS.translateRegExp(pattern));
  } catch (e) {
    const msg = (e as Error).message.replace(/^error parsing regexp: /, '');
    const unsupported = /\\[1-9]|\(\?<?[=!]/.test(pattern);
    throw new RegexError(`invalid regex ${JSON.stringify(pattern)}: ${msg}${unsupported ? ` (${HINT})` : ''}`);
  }
  return {
    groups: re.groupCount(),
    test: (s) => re.test(s),
    matches: (s) => re.testExact(s),
    exec: (s) => {
      const m = re.exec(s);
      return m ? Array.from(m, (x: string | null | undefined) => x ?? undefined) : null;
    },
    replaceAll: (s, r) => re.matcher(s).replaceAll(r),
  };
}

/** Why a pattern is refused, or undefined when it compiles (for check-time lints). */
export function regexProblem(pattern: string): string | undefined {
  try { compileRegex(pattern); return undefined; } catch (e) { return (e as Error).message; }
}

const MAX_CACHED = 256;
const cache = new Map<string, LinearRegex | string>(); // pattern -> regex, or its compile error

/** compileRegex through a bounded cache (oldest out first): the regex, or why it does not compile. */
export function cachedRegex(pattern: string): LinearRegex | string {
  let re = cache.get(pattern);
  if (re === undefined) {
    try {
      re = compileRegex(pattern);
    } catch (e) {
      re = (e as Error).message;
    }
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
    cache.set(pattern, re);
  }
  return re;
}

export const regexCacheSize = (): number => cache.size;

/** JSON Schema `pattern`s (Ajv's `code.regExp`) on the same linear-time engine: a config's pattern
 *  checks request data (MCP tool arguments, `accepts.schema`), so it must not backtrack. `toString`
 *  keys Ajv's cache; `code` is how generated validators reach it (contract/body-check.ts). */
export const linearRegExpEngine = Object.assign(
  (pattern: string) => { const re = compileRegex(pattern); return { test: (s: string) => re.test(s), toString: () => pattern }; },
  { code: 'require("pipewright/schema-regexp").default' },
);
