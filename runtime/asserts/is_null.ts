// `is_null: true` (or a bare key); `false` negates. undefined counts as null (see flag.ts).
import { flagOp, isNull } from './flag.ts';

export const op = flagOp(isNull, 'null', 'not null');
