// `filter`: keeps the elements of an array for which every condition holds. Each condition is a
// field path of the element and a Test on that field's value. With `target`, the result is the
// whole data with each selected array filtered (so sibling fields such as paging info survive); without
// it the data itself is the array. A condition whose jq may run a regex answers through a Promise:
// its verdicts are awaited, then the same filter is made again from them (runtime/jq/pool.ts).
import type { Scope } from '../scope.ts';
import { atTargets, type Targets } from './util/target.ts';
import { kindOf } from './util/path.ts';
import { TransformError } from './types.ts';

type Outcome = { ok: boolean };
type Condition = [field: (element: unknown, s: Scope) => unknown, test: (value: unknown, s: Scope) => Outcome | Promise<Outcome>];

export interface FilterArgs {
  target?: Targets;
  conditions: Condition[];
}

export function run(data: unknown, args: FilterArgs, s: Scope): unknown {
  // Verdicts that had to be awaited, per element (a pure function of it: objects by identity, scalars by value).
  const known = new Map<unknown, boolean>();
  const pending: Array<Promise<void>> = [];
  // A missing array (e.g. `items: null` when there are none) has nothing to filter.
  const pass = () => atTargets('filter', data, args.target, (list) => {
    if (!Array.isArray(list)) throw new TransformError(`filter: ${args.target ? 'the target selects' : 'the data is'} ${kindOf(list)}, not an array`);
    return list.filter((el) => {
      const v = known.get(el) ?? holds(el, args.conditions, s);
      if (!(v instanceof Promise)) return v;
      const p = v.then((ok) => { known.set(el, ok); });
      p.catch(() => {}); // awaited below, unless this pass throws first
      pending.push(p);
      return true;
    });
  });
  const out = pass();
  if (!pending.length) return out;
  return (async () => {
    let again = out;
    // Nested targets rebuild inner arrays first; an outer pass may meet elements not decided yet.
    while (pending.length) {
      await Promise.all(pending.splice(0));
      again = pass();
    }
    return again;
  })();
}

/** Every condition holds for the element; from the first one that answers through a Promise on, awaited. */
function holds(el: unknown, conditions: Condition[], s: Scope): boolean | Promise<boolean> {
  for (let i = 0; i < conditions.length; i++) {
    const [field, test] = conditions[i]!;
    const r = test(field(el, s), s);
    if (r instanceof Promise) {
      return (async () => {
        if (!(await r).ok) return false;
        for (const [f, t] of conditions.slice(i + 1)) if (!(await t(f(el, s), s)).ok) return false;
        return true;
      })();
    }
    if (!r.ok) return false;
  }
  return true;
}
