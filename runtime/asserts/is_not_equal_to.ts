// `is_not_equal_to: <value>`: the negation of is_equal_to (same strict typing).
import { deepEqual } from '../values/equal.ts';
import { show } from './json.ts';
import type { AssertOp } from './types.ts';

export const op: AssertOp = {
  check: (a, e) => !deepEqual(a, e),
  explain: (a, e) => `expected ${show(a)} not to equal ${show(e)}`,
};
