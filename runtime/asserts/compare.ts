// Numeric comparison operators: numbers and numeric strings ("12.5") compare as numbers;
// anything else fails with a message saying which side is not a number.
import { toNumber } from '../calc/num.ts';
import { show } from './json.ts';
import type { AssertOp } from './types.ts';

const isNum = (v: unknown) => !Number.isNaN(toNumber(v));

export function compareOp(words: string, holds: (a: number, e: number) => boolean): AssertOp {
  return {
    check: (a, e) => isNum(a) && isNum(e) && holds(toNumber(a), toNumber(e)),
    explain: (a, e) =>
      !isNum(e)
        ? `${words} needs a number, got ${show(e)}`
        : !isNum(a)
          ? `expected ${show(a)} to be a number ${words} ${show(e)}`
          : `expected ${show(a)} to be ${words} ${show(e)}`,
  };
}
