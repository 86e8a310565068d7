// extract_with_jq: ".items | map(.id)" -> the program's result as the compiled function returns
// it (one output as is, several as an array, none as null). jq runtime errors become clean
// action failures. A program that may run a regex answers through a Promise (the step is async).
import type { TransformRun } from './types.ts';
import { fnArg, guard, guardAsync } from './util/args.ts';

export const run: TransformRun = (data, args) => {
  const program = fnArg<(d: unknown) => unknown>(args, 'extract_with_jq');
  const v = guard('extract_with_jq', () => program(data));
  return v instanceof Promise ? guardAsync('extract_with_jq', () => v).then((x) => x ?? null) : (v ?? null);
};
