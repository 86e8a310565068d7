// extract_value: "path" -> the value at that path (first match); absent gives null, because
// JSON (and the next action) has no undefined.
import type { TransformRun } from './types.ts';
import { fnArg, guard } from './util/args.ts';

export const run: TransformRun = (data, args) => {
  const get = fnArg<(d: unknown) => unknown>(args, 'extract_value');
  return guard('extract_value', () => get(data)) ?? null;
};
