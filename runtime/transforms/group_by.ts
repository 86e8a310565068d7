// group_by: [field, ...] on an array -> { "<key>": [elements...] }. The key is the field's value
// as text (strings as is, numbers/booleans via String, objects as JSON); several fields are joined
// with "|"; an absent or null field is "null". Groups keep elements in input order. Note: JSON
// objects list integer-like keys first, so group order is first appearance except for those.
import { TransformError, type TransformRun } from './types.ts';
import { pathList } from './util/args.ts';
import { kindOf, lookup, MISSING, setOwn, type Rec } from './util/path.ts';

/** An element's key text for one field (shared with the compiler's specialised group_by). */
export const groupText = (v: unknown): string =>
  v === MISSING || v === null || v === undefined ? 'null' : typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);

export const run: TransformRun = (data, args) => {
  const paths = pathList(args, 'group_by');
  if (paths.length === 0) throw new TransformError('group_by: expected at least one field name');
  if (!Array.isArray(data)) throw new TransformError(`group_by: expected an array, got ${kindOf(data)}`);
  const groups = new Map<string, unknown[]>();
  for (const el of data) {
    const key = paths.map((p) => groupText(lookup(el, p))).join('|');
    const g = groups.get(key);
    if (g) g.push(el);
    else groups.set(key, [el]);
  }
  const out: Rec = {};
  for (const [k, els] of groups) setOwn(out, k, els);
  return out;
};
