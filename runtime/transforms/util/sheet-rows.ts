// A SheetJS dense sheet to JSON rows. Cells: strings and booleans as they are, numbers as numbers
// unless their format is a date (then ISO text: "2024-03-01", "2024-03-01T13:45:30", "13:45:30";
// a spreadsheet date has no time zone, so none is invented), formulas as their cached value,
// errors as their text ("#DIV/0!"), empty as null. Blank rows are skipped; columns run from the
// leftmost to the rightmost used column. The output is bounded in cells and in characters.
import { SSF, utils, type CellObject } from '@e965/xlsx';
import { TransformError } from '../types.ts';
import { setOwn } from './path.ts';

export interface RowOptions { headers: boolean; limit: number; date1904: boolean; maxCells: number; maxChars: number }

const ERRORS: Record<number, string> = { 0: '#NULL!', 7: '#DIV/0!', 15: '#VALUE!', 23: '#REF!', 29: '#NAME?', 36: '#NUM!', 42: '#N/A', 43: '#GETTING_DATA' };
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function isoOf(serial: number, date1904: boolean): string | number {
  const ms = Math.round(serial * 86_400_000);
  const days = Math.floor(ms / 86_400_000);
  let t = ms - days * 86_400_000;
  const time = `${pad(Math.floor(t / 3_600_000))}:${pad(Math.floor((t %= 3_600_000) / 60_000))}:${pad(Math.floor((t % 60_000) / 1000))}${t % 1000 ? '.' + pad(t % 1000, 3) : ''}`;
  if (days === 0 && !date1904) return time; // a time of day without a date
  const d = SSF.parse_date_code(days, { date1904 });
  if (!d || d.y < 1 || d.y > 9999) return serial;
  const date = `${pad(d.y, 4)}-${pad(d.m)}-${pad(d.d)}`;
  return ms === days * 86_400_000 ? date : `${date}T${time}`;
}

export function sheetRows(data: Array<Array<CellObject | undefined> | undefined> | undefined, o: RowOptions): unknown[] {
  const dateFormat = new Map<string, boolean>();
  const isDate = (z: string) => dateFormat.get(z) ?? (dateFormat.set(z, SSF.is_date(z)), dateFormat.get(z)!);
  const value = (c: CellObject | undefined): unknown => {
    if (!c || c.v === undefined || c.v === null) return null;
    switch (c.t) {
      case 's': return String(c.v);
      case 'b': return c.v === true;
      case 'e': return ERRORS[c.v as number] ?? '#ERROR';
      case 'd': return c.v instanceof Date && !isNaN(+c.v) ? c.v.toISOString().replace(/(T00:00:00)?\.000Z$|Z$/, '') : null;
      case 'n': {
        const n = c.v as number;
        if (!Number.isFinite(n)) return null;
        return typeof c.z === 'string' && n >= 0 && isDate(c.z) ? isoOf(n, o.date1904) : n;
      }
      default: return null;
    }
  };

  // Take the first non-blank rows (header + limit); note the used columns.
  const rows: unknown[][] = [];
  let lo = Infinity, hi = -1;
  const want = o.limit + (o.headers ? 1 : 0);
  for (const raw of data ?? []) {
    if (rows.length >= want) break;
    if (!raw) continue;
    const vals: unknown[] = [];
    let used = false;
    raw.forEach((c, i) => {
      const v = value(c);
      vals[i] = v;
      if (v !== null && v !== '') { used = true; lo = Math.min(lo, i); hi = Math.max(hi, i); }
    });
    if (used) rows.push(vals);
  }
  if (!rows.length) return [];
  const width = hi - lo + 1;
  const cells = rows.length * width;
  if (cells > o.maxCells)
    throw new TransformError(`parse_xlsx: ${rows.length} rows of ${width} columns is over ${o.maxCells} cells; lower limit or choose fewer columns`);

  let chars = 0;
  const count = (v: unknown) => { chars += typeof v === 'string' ? v.length + 3 : 6; };
  const cellsOf = (r: unknown[]) => Array.from({ length: width }, (_, i) => r[lo + i] ?? null);
  const check = () => {
    if (chars > o.maxChars) throw new TransformError(`parse_xlsx: the rows are over ${o.maxChars} characters of output; lower limit`);
  };
  if (!o.headers) {
    return rows.map((r) => { const out = cellsOf(r); out.forEach(count); check(); return out; });
  }
  const names = headerNames(cellsOf(rows[0]!), lo);
  return rows.slice(1).map((r) => {
    const out: Record<string, unknown> = {};
    cellsOf(r).forEach((v, i) => { setOwn(out, names[i]!, v); count(v); chars += names[i]!.length; });
    check();
    return out;
  });
}

/** Header text per column; an empty header is the column letter, a repeated one gets _2, _3... */
function headerNames(cells: unknown[], lo: number): string[] {
  const seen = new Set<string>();
  return cells.map((v, i) => {
    const base = v === null || v === '' ? utils.encode_col(lo + i) : String(v);
    let name = base;
    for (let n = 2; seen.has(name); n++) name = `${base}_${n}`;
    seen.add(name);
    return name;
  });
}
