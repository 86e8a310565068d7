// `is_not_null: true` (or a bare key); `false` negates. undefined counts as null (see flag.ts).
import { flagOp, isNull } from './flag.ts';

export const op = flagOp((v) => !isNull(v), 'not null', 'null');
