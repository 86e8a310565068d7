// Boolean-flag operators (is_null, is_not_null, is_empty, is_not_empty). Their configured value is
// a flag: true or a bare key (YAML null) asserts the property, false negates it, so
// `is_not_null: false` means "must be null" rather than silently skipping the check.
import { show } from './json.ts';
import type { AssertOp } from './types.ts';

/** False only for false (or "false", as a re-parsed interpolation may give). */
export function flag(expected: unknown): boolean {
  return !(expected === false || expected === 'false');
}

export function flagOp(holds: (v: unknown) => boolean, word: string, negated: string): AssertOp {
  return {
    check: (a, e) => holds(a) === flag(e),
    explain: (a, e) => `expected ${show(a)} to be ${flag(e) ? word : negated}`,
  };
}

export const isNull = (v: unknown): boolean => v === null || v === undefined;

/** null, undefined, "", [] and {} are empty; 0, false and " " are not. */
export function isEmpty(v: unknown): boolean {
  if (isNull(v) || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v as object).length === 0;
}
