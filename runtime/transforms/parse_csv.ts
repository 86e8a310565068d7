// parse_csv: TransformConfig (util/convert.ts) -> an array of row objects keyed by the header
// line. Values stay strings (ids such as "0012" survive), as for CSV responses of the HTTP action;
// a row with a different column count or a broken quote fails.
import { parse } from 'csv-parse/sync';
import { TransformError, type TransformRun } from './types.ts';
import { convertAt, needText } from './util/convert.ts';
import { setOwn, type Rec } from './util/path.ts';

const W = 'parse_csv';

export const run: TransformRun = (data, args) =>
  convertAt(data, args, W, (v) => {
    let rows: string[][];
    try {
      rows = parse(needText(v, W), { skip_empty_lines: true, bom: true });
    } catch (e) {
      if (e instanceof TransformError) throw e;
      throw new TransformError(`${W}: invalid CSV: ${(e as Error).message}`);
    }
    const [head, ...body] = rows;
    if (!head) return [];
    if (new Set(head).size !== head.length) throw new TransformError(`${W}: the header line repeats a column name`);
    return body.map((r) => {
      if (r.length !== head.length) throw new TransformError(`${W}: a row has ${r.length} fields, the header ${head.length}`);
      const o: Rec = {};
      head.forEach((h, i) => setOwn(o, h, r[i])); // own keys even for a "__proto__" header
      return o;
    });
  });
