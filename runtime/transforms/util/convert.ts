// The TransformConfig shape shared by b64_*, yaml_to_json, parse_csv, to_csv, encode/decode_uri*
// and generate_slug:
// - "path": the value at that path is converted in place. "" (or "." / "$") is the data itself;
//   any other path is read in the record (the data object, or each object element of an array,
//   like the other attribute transforms).
// - {key, json_path}: the value at json_path (JSONPath or dotted; compiled to a getter) is
//   converted and written under `key`; the source stays.
// Null or absent converts to null (nothing to convert is not an error; the shape stays stable).
import { TransformError } from '../types.ts';
import { guard } from './args.ts';
import { eachRecord } from './each.ts';
import { dataPath } from './fields.ts';
import { isObject, kindOf, lookup, MISSING, setPath, splitPath } from './path.ts';

export type Convert = (v: unknown) => unknown;

export function convertAt(data: unknown, args: unknown, who: string, f: Convert): unknown {
  const conv = (v: unknown) => (v === null || v === undefined || v === MISSING ? null : guard(who, () => f(v)));
  if (typeof args === 'string') {
    const segs = dataPath(args, who, 'path');
    if (segs.length === 0) return conv(data);
    return eachRecord(data, who, (rec) => {
      const v = lookup(rec, segs);
      return v === MISSING ? rec : setPath(rec, segs, conv(v), who);
    });
  }
  if (!isObject(args)) throw new TransformError(`${who}: expected a path or {key, json_path}, got ${kindOf(args)}`);
  const read = args.json_path;
  const v =
    typeof read === 'function' ? guard(who, () => (read as (d: unknown) => unknown)(data))
    : typeof read === 'string' ? lookup(data, dataPath(read, who, 'json_path'))
    : (() => { throw new TransformError(`${who}: \`json_path\` must be a path, got ${kindOf(read)}`); })();
  return setPath(data, splitPath(args.key, who), conv(v), who);
}

/** Input of a text conversion: strings only (a number or object here is a wrong path, not text). */
export function needText(v: unknown, who: string): string {
  if (typeof v !== 'string') throw new TransformError(`${who}: expected text, got ${kindOf(v)}`);
  return v;
}
