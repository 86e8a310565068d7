// The `value` / `key` pair shared by the catalogue transforms that compute one thing from the
// data (compress, decompress, parse_xlsx, parse_pdf): `value` is a path into the data ("" is the
// data itself; lowered to a getter), `key` a dotted path where the result is written on a copy.
// Data that is not an object has nowhere to hold `key`, so the result replaces it as {key: result}.
import { TransformError } from '../types.ts';
import { isObject, kindOf, setPath, splitPath } from './path.ts';

export interface ValueKeyArgs {
  value: (data: unknown) => unknown;
  key: string;
}

/** Checks the pair before any work is done; returns the value read and a writer for the result. */
export function valueKey(data: unknown, args: unknown, who: string): { value: unknown; write: (v: unknown) => unknown } {
  if (!isObject(args)) throw new TransformError(`${who}: expected an object, got ${kindOf(args)}`);
  if (typeof args.value !== 'function') throw new TransformError(`${who}: value must be a path ("" for the whole data)`);
  if (typeof args.key !== 'string' || args.key === '') throw new TransformError(`${who}: key must name the output field`);
  const segs = splitPath(args.key, who);
  let value: unknown;
  try {
    value = (args.value as (d: unknown) => unknown)(data);
  } catch (e) {
    throw new TransformError(`${who}: value: ${e instanceof Error ? e.message : String(e)}`);
  }
  return { value, write: (v) => setPath(isObject(data) ? data : {}, segs, v, who) };
}
