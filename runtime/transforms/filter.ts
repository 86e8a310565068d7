// `filter`: keeps the elements of an array for which every condition holds. Each condition is a
// field path of the element and a Test on that field's value. With `target`, the result is the
// whole data with each selected array filtered (so sibling fields such as paging info survive); without
// it the data itself is the array.
import type { Scope } from '../scope.ts';
import { atTargets, type Targets } from './util/target.ts';
import { kindOf } from './util/path.ts';
import { TransformError } from './types.ts';

export interface FilterArgs {
  target?: Targets;
  conditions: Array<[field: (element: unknown, s: Scope) => unknown, test: (value: unknown, s: Scope) => { ok: boolean }]>;
}

export function run(data: unknown, args: FilterArgs, s: Scope): unknown {
  // A missing array (e.g. `items: null` when there are none) has nothing to filter.
  return atTargets('filter', data, args.target, (list) => {
    if (!Array.isArray(list)) throw new TransformError(`filter: ${args.target ? 'the target selects' : 'the data is'} ${kindOf(list)}, not an array`);
    return list.filter((el) => args.conditions.every(([field, test]) => test(field(el, s), s).ok));
  });
}
