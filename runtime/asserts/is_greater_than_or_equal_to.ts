// `is_greater_than_or_equal_to: 5` — see compare.ts for how non-numbers are handled.
import { compareOp } from './compare.ts';

export const op = compareOp('greater than or equal to', (a, e) => a >= e);
