// generate_slug: TransformConfig (util/convert.ts) -> a URL slug: lower case, accented letters
// transliterated (é -> e, & -> and), every other run of non-alphanumerics one "-", no leading or
// trailing "-". Text with nothing to keep (e.g. only CJK) gives "".
import slugify from 'slugify';
import type { TransformRun } from './types.ts';
import { convertAt } from './util/convert.ts';
import { scalarText } from './util/uri.ts';

const W = 'generate_slug';

export const run: TransformRun = (data, args) =>
  convertAt(data, args, W, (v) => slugify(scalarText(v, W), { lower: true, strict: true, trim: true }));
