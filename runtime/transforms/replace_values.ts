// replace_values: replaces values anywhere in the data (a copy; nothing is mutated).
// - Scope: every scalar at any depth; with `target_key`, only the values of fields so named (at
//   any depth; such a value may be an object or array, replaced whole).
// - Selection: `values` (strings equal to an entry; numbers, booleans and null by their JSON
//   text, so "0" and "null" match 0 and null), and/or `find_str` (strings containing
//   it; a regex (JS syntax without backreferences or lookaround, linear-time) when `regex: true`, or give the pattern as `regex` itself). With neither, every
//   value in scope is selected, which needs `target_key` (replacing every scalar is a mistake).
// - Replacement: the selected value becomes `target_value` (any JSON, e.g. null or "***"). With
//   `new_str` and a find, only the matched parts of the string are replaced by new_str.
import { TransformError, type TransformRun } from './types.ts';
import { config, flag, text } from './util/fields.ts';
import { setOwn, type Rec } from './util/path.ts';
import { cachedRegex, type LinearRegex } from '../values/regex.ts';

const W = 'replace_values';
const MAX_DEPTH = 512;

export const run: TransformRun = (data, args) => {
  const a = config(args, W);
  if (!Object.hasOwn(a, 'target_value')) throw new TransformError(`${W}: \`target_value\` is required`);
  const key = a.target_key === undefined ? undefined : text(a, 'target_key', W, { nonEmpty: true });
  const values = a.values as string[] | undefined;
  if (values !== undefined && (!Array.isArray(values) || !values.every((x) => typeof x === 'string')))
    throw new TransformError(`${W}: \`values\` must be a list of text`);
  const asRegex = typeof a.regex === 'string' ? a.regex : flag(a, 'regex', W, false) ? text(a, 'find_str', W, { nonEmpty: true }) : undefined;
  if (typeof a.regex === 'string' && a.find_str !== undefined) throw new TransformError(`${W}: give the pattern as \`regex\` or \`find_str\`, not both`);
  const find = asRegex ?? (a.find_str === undefined ? undefined : text(a, 'find_str', W, { nonEmpty: true }));
  // Compiled once per pattern (bounded cache): inside a lookup this runs for every item.
  const compiled = asRegex === undefined ? undefined : cachedRegex(asRegex);
  if (typeof compiled === 'string') throw new TransformError(`${W}: ${compiled}`);
  const re: LinearRegex | undefined = compiled;
  const newStr = a.new_str === undefined ? undefined : text(a, 'new_str', W);
  if (newStr !== undefined && find === undefined) throw new TransformError(`${W}: \`new_str\` needs \`find_str\` or \`regex\``);
  if (key === undefined && values === undefined && find === undefined)
    throw new TransformError(`${W}: set \`target_key\`, \`values\` or \`find_str\` to say which values to replace`);

  const hit = (s: string) => (re ? re.test(s) : s.includes(find!));
  const replace = (v: unknown): unknown => {
    const str = typeof v === 'string' ? v : v === null || typeof v !== 'object' ? JSON.stringify(v) : undefined;
    if (values !== undefined && !(str !== undefined && values.includes(str))) return v;
    if (find !== undefined && !(typeof v === 'string' && hit(v))) return v;
    if (newStr === undefined) return a.target_value;
    return re ? re.replaceAll(v as string, newStr) : (v as string).split(find!).join(newStr);
  };
  const visit = (x: unknown, depth: number, keyed: boolean): unknown => {
    if (keyed) {
      const r = replace(x);
      if (r !== x) return r;
    }
    if (x !== null && typeof x === 'object') return walk(x, depth + 1);
    return key === undefined ? replace(x) : x;
  };
  const walk = (v: object, depth: number): unknown => {
    if (depth > MAX_DEPTH) throw new TransformError(`${W}: the data is nested deeper than ${MAX_DEPTH} levels`);
    if (Array.isArray(v)) return v.map((x) => visit(x, depth, false));
    const out: Rec = {};
    for (const [k, x] of Object.entries(v)) setOwn(out, k, visit(x, depth, k === key));
    return out;
  };
  return visit(data, -1, false);
};
