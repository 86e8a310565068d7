// `is_type: string|number|boolean|object|array|null`: the JSON type; arrays are not objects and
// a missing value (undefined) is null.
import { show, typeName } from './json.ts';
import type { AssertOp } from './types.ts';

const TYPES = ['string', 'number', 'boolean', 'object', 'array', 'null'];

export const op: AssertOp = {
  check: (a, e) => TYPES.includes(e as string) && typeName(a) === e,
  explain: (a, e) =>
    TYPES.includes(e as string)
      ? `expected ${show(a)} to be of type ${e}, but it is ${typeName(a)}`
      : `is_type must be one of ${TYPES.join(', ')}, got ${show(e)}`,
};
