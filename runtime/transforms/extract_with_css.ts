// extract_with_css: {value, selector, key, attribute | html, all} -> matches of the CSS selector
// (cheerio) in the HTML at `value` ("" or absent = the data itself is the HTML string).
// Each match is its text (whitespace trimmed), its inner HTML with `html: true`, or the value of
// `attribute` (null when the element lacks it). `all: true` gives the array of every match (in
// document order), otherwise the first match or null. The result is written under `key` in the
// data; when the data is the HTML itself, the result is the object {key: result}.
import { load } from 'cheerio';
import { TransformError, type TransformRun } from './types.ts';
import { config, dataPath, flag, text, writeKey } from './util/fields.ts';
import { kindOf, lookup, MISSING } from './util/path.ts';

const W = 'extract_with_css';

export const run: TransformRun = (data, args) => {
  const a = config(args, W);
  const segs = dataPath(a.value ?? '', W);
  const selector = text(a, 'selector', W, { nonEmpty: true });
  const attr = a.attribute === undefined ? undefined : text(a, 'attribute', W, { nonEmpty: true });
  const html = flag(a, 'html', W, false), all = flag(a, 'all', W, false);
  if (attr !== undefined && html) throw new TransformError(`${W}: set either \`attribute\` or \`html\`, not both`);
  if (typeof a.key !== 'string' || a.key === '') throw new TransformError(`${W}: \`key\` must be a field name`);

  const src = lookup(data, segs);
  if (src !== MISSING && src !== null && typeof src !== 'string')
    throw new TransformError(`${W}: expected an HTML string at \`value\`, got ${kindOf(src)}`);
  let found: Array<string | null> = [];
  if (typeof src === 'string') {
    const $ = load(src);
    let els;
    try {
      els = $(selector).toArray();
    } catch (e) {
      throw new TransformError(`${W}: invalid selector: ${(e as Error).message}`);
    }
    found = (all ? els : els.slice(0, 1)).map((el) =>
      attr !== undefined ? ($(el).attr(attr) ?? null) : html ? ($(el).html() ?? '') : $(el).text().trim());
  }
  const result = all ? found : (found[0] ?? null);
  return writeKey(segs.length === 0 ? {} : data, a, result, W);
};
