// `filter`: keeps the elements of an array for which every condition holds. Each condition is a
// field path of the element and a Test on that field's value. With `target`, the result is the
// whole data with each selected array filtered (so sibling fields such as paging info survive); without
// it the data itself is the array. A condition whose jq may run a regex answers through a Promise
// (runtime/jq/pool.ts): that array's verdicts are awaited, and nested targets wait for it (util/target.ts).
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
  // A missing array (e.g. `items: null` when there are none) has nothing to filter.
  return atTargets('filter', data, args.target, (list) => {
    if (!Array.isArray(list)) throw new TransformError(`filter: ${args.target ? 'the target selects' : 'the data is'} ${kindOf(list)}, not an array`);
    const verdicts = list.map((el) => {
      const v = holds(el, args.conditions, s);
      if (v instanceof Promise) v.catch(() => {}); // awaited in inOrder, unless a later element throws first
      return v;
    });
    if (!verdicts.some((v) => v instanceof Promise)) return list.filter((_, i) => verdicts[i]);
    return inOrder(verdicts).then((ok) => list.filter((_, i) => ok[i]));
  });
}

/** The verdicts, awaited in element order, so a failure names the first failing element as the synchronous filter does. */
async function inOrder(verdicts: Array<boolean | Promise<boolean>>): Promise<boolean[]> {
  const ok: boolean[] = [];
  for (const v of verdicts) ok.push(await v);
  return ok;
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
