// to_csv: TransformConfig (util/convert.ts) -> CSV text with a header line. Columns are the first
// row's keys in order; later rows' other keys are dropped and missing ones are empty. Null is
// empty, numbers and booleans are their JSON text, objects and arrays compact JSON. [] gives "".
import { stringify } from 'csv-stringify/sync';
import { TransformError, type TransformRun } from './types.ts';
import { convertAt } from './util/convert.ts';
import { isObject, kindOf } from './util/path.ts';

const W = 'to_csv';

const cell = (v: unknown): string =>
  v === null || v === undefined ? '' : typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);

export const run: TransformRun = (data, args) =>
  convertAt(data, args, W, (v) => {
    if (!Array.isArray(v)) throw new TransformError(`${W}: expected an array of objects, got ${kindOf(v)}`);
    if (v.length === 0) return '';
    if (!v.every(isObject)) throw new TransformError(`${W}: every element must be an object`);
    const cols = Object.keys(v[0]);
    const rows = v.map((r) => cols.map((c) => cell(Object.hasOwn(r, c) ? r[c] : null)));
    return stringify([cols, ...rows]);
  });
