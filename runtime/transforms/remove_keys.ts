// remove_keys: [name, ...] removed from the root object only. Names are literal keys (a dot is
// part of the name). An array root is returned unchanged, as for rename_keys.
import { TransformError, type TransformRun } from './types.ts';
import { isObject, kindOf } from './util/path.ts';

export const run: TransformRun = (data, args) => {
  if (!Array.isArray(args) || args.some((a) => typeof a !== 'string'))
    throw new TransformError(`remove_keys: expected a list of key names, got ${kindOf(args)}`);
  if (Array.isArray(data)) return data;
  if (!isObject(data)) throw new TransformError(`remove_keys: expected an object, got ${kindOf(data)}`);
  if (!args.some((k: string) => Object.hasOwn(data, k))) return data;
  const out = { ...data }; // spread copies an own "__proto__" as data, delete removes it safely
  for (const k of args) delete out[k];
  return out;
};
