// rename_keys: { old: new } on the root object only (same rules as rename_attributes). An array
// root is returned unchanged: "root-level keys" of a list are not its elements' keys.
import { TransformError, type TransformRun } from './types.ts';
import { rename } from './rename_attributes.ts';
import { stringPairs } from './util/args.ts';
import { isObject, kindOf } from './util/path.ts';

export const run: TransformRun = (data, args) => {
  const pairs = stringPairs(args, 'rename_keys');
  if (Array.isArray(data)) return data;
  if (!isObject(data)) throw new TransformError(`rename_keys: expected an object, got ${kindOf(data)}`);
  return rename(data, pairs);
};
