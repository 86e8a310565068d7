// extract_with_json_path: "$.items[*].id" -> the array of all matches, always: one match is
// [value], none is []. The shape never depends on the data, so the next action can rely on it
// (use extract_value for a single value).
import type { TransformRun } from './types.ts';
import { fnArg, guard } from './util/args.ts';

export const run: TransformRun = (data, args) => {
  const query = fnArg<(d: unknown) => unknown[]>(args, 'extract_with_json_path');
  const out = guard('extract_with_json_path', () => query(data));
  return Array.isArray(out) ? out : out === undefined ? [] : [out];
};
