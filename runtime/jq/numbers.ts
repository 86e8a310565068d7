// Number classification builtins (isinfinite, isnan, isnormal, nan) and fromjson.
import { fail1, fallback } from './errors.ts';
import { numStr } from './text.ts';

function num(v: unknown): number {
  if (typeof v !== 'number') fail1(v, 'number required');
  return v;
}
export const isinfinite = (v: unknown): boolean => Math.abs(num(v)) === Infinity;
export const isnan = (v: unknown): boolean => Number.isNaN(num(v));
export function isnormal(v: unknown): boolean {
  const n = Math.abs(num(v));
  return n >= 2.2250738585072014e-308 && n !== Infinity;
}
export const nan = (): number => NaN;

const NUMBER_TOKEN = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/**
 * `fromjson` where JSON.parse reads the text as jq does (plain JSON whose numbers print back the same);
 * jq's extensions (nan, literals it keeps as written) and its parse errors are left to the engine.
 */
export function fromjson(v: unknown): unknown {
  if (typeof v !== 'string') fail1(v, 'only strings can be parsed');
  let r: unknown;
  try {
    r = JSON.parse(v);
  } catch {
    fallback();
  }
  for (const m of v.match(NUMBER_TOKEN) ?? []) if (numStr(Number(m)) !== m) fallback();
  // jq reads lone surrogate escapes as U+FFFD and stops at 10,000 levels of nesting.
  if (/\\u[dD][89a-fA-F]/.test(v) || (v.length > 10_000 && (v.match(/[[{]/g)?.length ?? 0) > 10_000)) fallback();
  return r;
}
