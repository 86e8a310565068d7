// return_row: N -> the Nth element (0-based) of an array; negative N counts from the end (-1 is
// the last). Out of range gives null (an empty result is data, not a failure). N may be an
// integer string, since an interpolated marker (a|params::row|) yields text.
import { TransformError, type TransformRun } from './types.ts';
import { kindOf } from './util/path.ts';

export const run: TransformRun = (data, args) => {
  const n = typeof args === 'string' && /^\s*-?\d+\s*$/.test(args) ? Number(args) : args;
  if (typeof n !== 'number' || !Number.isSafeInteger(n))
    throw new TransformError(`return_row: expected an integer row index, got ${kindOf(args)}`);
  if (!Array.isArray(data)) throw new TransformError(`return_row: expected an array, got ${kindOf(data)}`);
  const i = n < 0 ? data.length + n : n;
  return i >= 0 && i < data.length ? data[i] : null;
};
