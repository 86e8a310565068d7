// to_csv: a path, {key, json_path} (util/convert.ts) or {path}, each with escape_formulas -> CSV text
// with a header line. Columns are the first row's keys in order; later rows' other keys are dropped
// and missing ones are empty. Null is empty, numbers and booleans are their JSON text, objects and
// arrays compact JSON. [] gives "".
// Formula injection (OWASP, "CSV Injection"): a spreadsheet runs a cell starting with =, +, -, @,
// a tab or a carriage return as a formula, so such text cells (headers included) get a leading '.
// A cell that is a plain number (-5, +1.5e3, a JSON number or text spelling one) is a number to a
// spreadsheet, never a formula, and is left as it is. `escape_formulas: false` turns this off.
import { stringify } from 'csv-stringify/sync';
import { TransformError, type TransformRun } from './types.ts';
import { convertAt } from './util/convert.ts';
import { isObject, kindOf } from './util/path.ts';

const W = 'to_csv';

const cell = (v: unknown): string =>
  v === null || v === undefined ? '' : typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** The cell as a spreadsheet shows it as text (OWASP's leading single quote). */
export const safeCell = (text: string): string => (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text);

export const run: TransformRun = (data, args) => {
  let escape = true;
  let target = args;
  if (isObject(args) && (Object.hasOwn(args, 'escape_formulas') || Object.hasOwn(args, 'path'))) {
    const { escape_formulas: e, path, ...rest } = args;
    if (e !== undefined && typeof e !== 'boolean') throw new TransformError(`${W}: \`escape_formulas\` must be true or false, got ${kindOf(e)}`);
    escape = e !== false;
    if (path !== undefined && typeof path !== 'string') throw new TransformError(`${W}: \`path\` must be a path, got ${kindOf(path)}`);
    target = path !== undefined ? path : rest;
  }
  const text = escape ? (v: unknown) => safeCell(cell(v)) : cell;
  return convertAt(data, target, W, (v) => {
    if (!Array.isArray(v)) throw new TransformError(`${W}: expected an array of objects, got ${kindOf(v)}`);
    if (v.length === 0) return '';
    if (!v.every(isObject)) throw new TransformError(`${W}: every element must be an object`);
    const cols = Object.keys(v[0]);
    const rows = v.map((r) => cols.map((c) => text(Object.hasOwn(r, c) ? r[c] : null)));
    return stringify([escape ? cols.map(safeCell) : cols, ...rows]);
  });
};
