// `aggregate`: summarises an array. Output (only the requested parts appear):
//   { count: 3, sum: { amount: 60 }, avg: { amount: 20 }, min: { amount: 10 }, max: { amount: 30 },
//     groups: [ { key: { region: "eu" }, count: 2, sum: { amount: 30 }, ... } ] }
// Field names are used as written, dotted ones included ("price.amount" reads nested, is one key).
// Values that are not numbers or numeric strings are ignored; sum of none is 0, avg/min/max null.
// Fractional sums and averages are cut to 15 significant digits, so binary noise does not show
// (0.1 + 0.2 is 0.3); integer sums are exact and left alone.
// groups is a list in first-seen order, each with the same shape as the overall summary: a list
// keeps multi-field keys and non-string key values intact, which a keyed map could not.
import type { Scope } from '../scope.ts';
import { getDotted } from '../calc/locate.ts';
import { toNumber } from '../calc/num.ts';
import { TransformError } from './types.ts';
import { copyRecord } from '../values/build.ts';
import { setOwn } from './util/path.ts';

export interface AggregateArgs {
  over?: (data: unknown) => unknown;
  key?: string;
  sum?: string[];
  avg?: string[];
  min?: string[];
  max?: string[];
  count?: boolean;
  group_by?: string[];
}

const OPS = ['sum', 'avg', 'min', 'max'] as const;
/** Fractional sums and averages cut to 15 significant digits (shared with specialised code). */
export const cleanSum = (n: number): number => (Number.isInteger(n) ? n : Number(n.toPrecision(15)));
const clean = cleanSum;

function summarise(items: unknown[], args: AggregateArgs, count: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (count) out.count = items.length;
  for (const op of OPS) {
    if (!args[op]) continue;
    const per: Record<string, number | null> = {};
    for (const field of args[op]!) {
      const nums = items.map((it) => toNumber(getDotted(it, field))).filter(Number.isFinite);
      const total = nums.reduce((a, b) => a + b, 0);
      setOwn(per, field, op === 'sum' ? clean(total)
        : !nums.length ? null
        : op === 'avg' ? clean(total / nums.length)
        : nums.reduce((a, b) => (op === 'min' ? Math.min(a, b) : Math.max(a, b))));
    }
    out[op] = per;
  }
  return out;
}

export function run(data: unknown, args: AggregateArgs, _s: Scope): unknown {
  const list = args.over ? args.over(data) : data;
  if (list !== null && list !== undefined && !Array.isArray(list))
    throw new TransformError(`aggregate: ${args.over ? 'over' : 'the data'} is not an array`);
  const items = list ?? []; // a missing array (items: null) summarises as zero items
  for (const f of ['sum', 'avg', 'min', 'max', 'group_by'] as const)
    if (args[f] !== undefined && !(Array.isArray(args[f]) && args[f]!.every((x) => typeof x === 'string')))
      throw new TransformError(`aggregate: ${f} must be a list of field names`);
  const count = args.count ?? !OPS.some((op) => args[op]);
  const summary = summarise(items, args, count);
  if (args.group_by) {
    const groups = new Map<string, { key: Record<string, unknown>; items: unknown[] }>();
    const fields = args.group_by;
    for (const it of items) {
      const vals = fields.map((f) => getDotted(it, f) ?? null);
      const id = JSON.stringify(vals);
      let g = groups.get(id);
      // The key object is built once per group, not once per item.
      if (!g) groups.set(id, (g = { key: Object.fromEntries(fields.map((f, i) => [f, vals[i]])), items: [] }));
      g.items.push(it);
    }
    summary.groups = [...groups.values()].map((g) => ({ key: g.key, ...summarise(g.items, args, count) }));
  }
  if (args.key === undefined) return summary;
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    throw new TransformError('aggregate: key needs the data to be an object (omit key to replace the data)');
  const out = copyRecord(data);
  setOwn(out, args.key, summary);
  return out;
}
