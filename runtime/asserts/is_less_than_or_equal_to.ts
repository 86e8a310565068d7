// `is_less_than_or_equal_to: 5` — see compare.ts for how non-numbers are handled.
import { compareOp } from './compare.ts';

export const op = compareOp('less than or equal to', (a, e) => a <= e);
