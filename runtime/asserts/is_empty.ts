// `is_empty: true` (or a bare key); `false` negates. null, undefined, "", [] and {} are empty (see flag.ts).
import { flagOp, isEmpty } from './flag.ts';

export const op = flagOp(isEmpty, 'empty', 'not empty');
