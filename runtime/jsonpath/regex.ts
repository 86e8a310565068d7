// JSONPath match() and search() (RFC 9535 §2.4.6–7) on the linear-time engine every config regex
// runs on (compileRegex, runtime/values/regex.ts), in place of json-p3's JS RegExp: a filter such as
// `match(@.name, '(a+)+$')`, whose pattern may even come from the document, cannot freeze the server.
// As in json-p3: the pattern must be an I-Regexp (RFC 9485, checked by iregexp-check, the checker
// json-p3 bundles); a non-string argument or an unusable pattern gives false, never an error.
// match() is a whole-string match; `.` outside a class is any character but \n and \r (RFC 9485 §5).
import { check } from 'iregexp-check';
import { FunctionExpressionType, type FilterFunction } from 'json-p3';
import { compileRegex, type LinearRegex } from '../values/regex.ts';

/** Patterns kept compiled (a pattern read from the document is data: the cache stays bounded). */
const CACHE = 100;
const cache = new Map<string, LinearRegex | null>();

/** RFC 9485 §5's mapping, for RE2: only `.` outside a character class changes. */
function toRe2(pattern: string): string {
  let out = '';
  let escaped = false;
  let inClass = false;
  for (const ch of pattern) {
    if (escaped) { out += ch; escaped = false; continue; }
    if (ch === '\\') escaped = true;
    else if (ch === '[') inClass = true;
    else if (ch === ']') inClass = false;
    out += ch === '.' && !inClass ? '[^\\n\\r]' : ch;
  }
  return out;
}

function compiled(pattern: string): LinearRegex | null {
  const hit = cache.get(pattern);
  if (hit !== undefined) return hit;
  let re: LinearRegex | null = null;
  // RE2 refuses a few I-Regexps JS accepts (a repeat count over 1000): false, like any unusable pattern.
  if (check(pattern)) try { re = compileRegex(toRe2(pattern)); } catch { re = null; }
  if (cache.size >= CACHE) cache.delete(cache.keys().next().value!);
  cache.set(pattern, re);
  return re;
}

class LinearRegexFunction implements FilterFunction {
  readonly argTypes = [FunctionExpressionType.ValueType, FunctionExpressionType.ValueType];
  readonly returnType = FunctionExpressionType.LogicalType;
  constructor(private readonly whole: boolean) {}
  call(s: unknown, pattern: unknown): boolean {
    if (typeof s !== 'string' || typeof pattern !== 'string') return false;
    const re = compiled(pattern);
    return re ? (this.whole ? re.matches(s) : re.test(s)) : false;
  }
}

export const linearMatch: FilterFunction = new LinearRegexFunction(true);
export const linearSearch: FilterFunction = new LinearRegexFunction(false);
