// `filter`: keeps the elements of an array for which every condition holds. Each condition is a
// field path of the element and a Test on that field's value. With `target`, the result is the
// whole data with that array replaced (so sibling fields such as paging info survive); without
// it the data itself is the array.
import type { Scope } from '../scope.ts';
import { replacePart } from '../calc/locate.ts';
import { TransformError } from './types.ts';

export interface FilterArgs {
  target?: (data: unknown) => unknown;
  conditions: Array<[field: (element: unknown, s: Scope) => unknown, test: (value: unknown, s: Scope) => { ok: boolean }]>;
}

export function run(data: unknown, args: FilterArgs, s: Scope): unknown {
  const list = args.target ? args.target(data) : data;
  // A missing array (e.g. `items: null` when there are none) has nothing to filter.
  if (list === null || list === undefined) return data;
  if (!Array.isArray(list)) throw new TransformError(`filter: ${args.target ? 'target' : 'the data'} is not an array`);
  const kept = list.filter((el) => args.conditions.every(([field, test]) => test(field(el, s), s).ok));
  const out = replacePart(data, list, kept);
  if (out === undefined) throw new TransformError('filter: target could not be located in the data');
  return out;
}
