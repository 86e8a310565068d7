// `is_greater_than: 5` — see compare.ts for how non-numbers are handled.
import { compareOp } from './compare.ts';

export const op = compareOp('greater than', (a, e) => a > e);
