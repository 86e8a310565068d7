// The one JSONPath environment (json-p3, strict RFC 9535) behind both paths: the interpreter queries
// through it, the compiler parses with it, and compiled filters call its regex functions, which run
// on the linear-time engine (./regex.ts) rather than json-p3's JS RegExp.
import { jsonpath } from 'json-p3';
import { linearMatch, linearSearch } from './regex.ts';

/** Deepest nesting `..` descends into (json-p3 counts every visited node, leaves included). */
export const MAX_DEPTH = 1000;

export const env = new jsonpath.JSONPathEnvironment({ strict: true, maxRecursionDepth: MAX_DEPTH });
env.functionRegister.set('match', linearMatch);
env.functionRegister.set('search', linearSearch);

/** The one error both paths raise when `..` would go deeper than MAX_DEPTH. */
export function depthError(): Error {
  return new Error(`JSONPath recursion limit reached: the document nests deeper than ${MAX_DEPTH} levels`);
}

/** A parse error's message without json-p3's trailing `('<excerpt>':<index>)`. */
export function errorText(e: unknown): string {
  return String((e as Error).message ?? e).replace(/ \('(?:[^']|'(?!:\d+\)$))*':\d+\)$/, '');
}

/** Text starting with `$` (after any whitespace, which RFC 9535 then refuses) is a JSONPath; else a dotted path. */
export const isJsonPath = (src: string): boolean => /^\s*\$/.test(src);
