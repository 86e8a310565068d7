// `is_one_of: [a, b, c]`: deep JSON equality against each element (strict types, like is_equal_to).
import { deepEqual } from '../values/equal.ts';
import { show } from './json.ts';
import type { AssertOp } from './types.ts';

export const op: AssertOp = {
  check: (a, e) => Array.isArray(e) && e.some((x) => deepEqual(a, x)),
  explain: (a, e) =>
    Array.isArray(e) ? `expected ${show(a)} to be one of ${show(e)}` : `is_one_of needs a list, got ${show(e)}`,
};
