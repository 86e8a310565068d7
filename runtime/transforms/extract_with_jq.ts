// extract_with_jq: ".items | map(.id)" -> the program's result as the compiled function returns
// it (one output as is, several as an array, none as null). jq runtime errors become clean
// action failures.
import type { TransformRun } from './types.ts';
import { fnArg, guard } from './util/args.ts';

export const run: TransformRun = (data, args) => {
  const program = fnArg<(d: unknown) => unknown>(args, 'extract_with_jq');
  return guard('extract_with_jq', () => program(data)) ?? null;
};
