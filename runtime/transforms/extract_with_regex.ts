// extract_with_regex: {value, expr, keys} -> an object naming the capture groups of the first
// match of `expr` (JavaScript syntax without backreferences or lookaround, linear-time; no flags) in the text at `value` ("" = the data itself):
// keys[i] is group i+1. A group that did not take part, no match, or null/absent text give null
// for every key, so the shape never depends on the data. Like the other extract_* transforms, the
// result replaces the data. Numbers are matched as their text; objects fail.
import { TransformError, type TransformRun } from './types.ts';
import { config, dataPath } from './util/fields.ts';
import { cachedRegex } from '../values/regex.ts';
import { kindOf, lookup, MISSING, setOwn, type Rec } from './util/path.ts';

const W = 'extract_with_regex';

export const run: TransformRun = (data, args) => {
  const a = config(args, W);
  const segs = dataPath(a.value, W);
  const keys = a.keys;
  if (!Array.isArray(keys) || keys.length === 0 || !keys.every((k) => typeof k === 'string' && k !== ''))
    throw new TransformError(`${W}: \`keys\` must be a list of names`);
  if (typeof a.expr !== 'string') throw new TransformError(`${W}: \`expr\` must be a regular expression`);
  // Compiled once per pattern (bounded cache): inside a lookup this runs for every item.
  const re = cachedRegex(a.expr);
  if (typeof re === 'string') throw new TransformError(`${W}: ${re}`);
  const groups = re.groups;
  if (keys.length > groups) throw new TransformError(`${W}: ${keys.length} keys but the expression has ${groups} capture group(s)`);

  const v = lookup(data, segs);
  if (v !== MISSING && v !== null && typeof v !== 'string' && typeof v !== 'number')
    throw new TransformError(`${W}: expected text at \`value\`, got ${kindOf(v)}`);
  const m = v === MISSING || v === null ? null : re.exec(String(v));
  const out: Rec = {};
  keys.forEach((k: string, i) => setOwn(out, k, m?.[i + 1] ?? null));
  return out;
};
