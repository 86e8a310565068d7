// remove_attributes: [name, "user.password", ...] removed from the record (each object element of
// an array). Dotted names reach into nested objects (and arrays by index); absent ones are ignored.
import type { TransformRun } from './types.ts';
import { pathList } from './util/args.ts';
import { eachRecord } from './util/each.ts';
import { deletePath } from './util/path.ts';

export const run: TransformRun = (data, args) => {
  const paths = pathList(args, 'remove_attributes');
  return eachRecord(data, 'remove_attributes', (rec) => paths.reduce<unknown>((r, p) => deletePath(r, p), rec));
};
