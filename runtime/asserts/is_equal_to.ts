// `is_equal_to: <value>`: deep JSON equality (see json.ts). Types are strict: 200 and "200" differ,
// because the config is re-parsed after interpolation, so the author chooses the type by writing
// 200 or "200"; coercing here would hide type drift in an API's response.
import { deepEqual } from '../values/equal.ts';
import { show } from './json.ts';
import type { AssertOp } from './types.ts';

export const op: AssertOp = {
  check: (a, e) => deepEqual(a, e),
  explain: (a, e) => `expected ${show(a)} to equal ${show(e)}`,
};
