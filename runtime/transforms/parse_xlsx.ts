// parse_xlsx: {value, key, sheet?, headers?, limit?, encoding?, max_document_bytes?} -> the rows of
// one sheet of the .xlsx/.xls/.ods at `value` (base64 or base64url), written at `key`: objects keyed
// by the header row (headers: true, the default) or arrays. Cell rules: util/sheet-rows.ts.
// The file is untrusted: only the three formats are accepted (SheetJS would also parse CSV, HTML,
// SYLK... from any text), its decoded size is bounded (max_document_bytes, default 16 MiB), a zip's
// inflated size is bounded (8x that) before SheetJS allocates anything, SheetJS reads at most
// limit + 1001 sheet rows (blank or title rows above the data may use up to 1000 of them), reading
// has a CPU deadline (SheetJS can loop forever on a crafted .xls), and the output is bounded in
// cells and characters. An absent or null value gives null.
import { read, type WorkBook } from '@e965/xlsx';
import { byteBound, decodeBinary, encodingArg, DEFAULT_MAX_DOCUMENT_BYTES } from './util/bytes.ts';
import { sheetRows } from './util/sheet-rows.ts';
import { valueKey } from './util/value-key.ts';
import { fixAstralRefs, inflateZip, storedZip } from './util/zip-guard.ts';
import { withDeadline } from './util/deadline.ts';
import { TransformError, type TransformRun } from './types.ts';

export { DEFAULT_MAX_DOCUMENT_BYTES };
const W = 'parse_xlsx';
const MAX_CELLS = 1_000_000;
const MAX_LIMIT = 1_000_000;
const ROW_SLACK = 1000;
/** Reading stops here: a 15 MiB file near the row limit takes 1-3 s on a small server. */
let deadlineMs = 10_000;
/** For tests: a shorter deadline (no argument restores the default). */
export function setParseDeadline(ms = 10_000): void { deadlineMs = ms; }
const CFB = Buffer.from('d0cf11e0a1b11ae1', 'hex');
const ODS = 'application/vnd.oasis.opendocument.spreadsheet';

/** Checks the container and returns the bytes SheetJS may read. */
function vetted(buf: Buffer, budget: number): Buffer {
  if (buf.subarray(0, 8).equals(CFB)) return buf; // .xls (OLE2); no compression inside
  if (buf.readUInt32LE(0) !== 0x04034b50) throw new TransformError(`${W}: the value is not an .xlsx, .xls or .ods file`);
  const entries = inflateZip(buf, budget, W);
  const has = (n: string) => entries.some((e) => e.name === n);
  const ods = entries.some((e) => e.name === 'mimetype' && e.data.toString('latin1').trim() === ODS);
  if (!has('xl/workbook.xml') && !(ods && has('content.xml'))) throw new TransformError(`${W}: the zip is not an .xlsx or .ods file`);
  const fixed = fixAstralRefs(entries);
  return fixed ? storedZip(fixed) : buf;
}

function count(v: unknown, dflt: number, field: string): number {
  if (v === undefined || v === null) return dflt;
  const n = typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_LIMIT) throw new TransformError(`${W}: ${field} must be a whole number from 1 to ${MAX_LIMIT}`);
  return n;
}

function pickSheet(wb: WorkBook, sheet: unknown): string {
  const names = wb.SheetNames;
  let name: string | undefined;
  if (sheet === undefined || sheet === null) name = names[0];
  else if (typeof sheet === 'number') name = names[sheet];
  else if (typeof sheet === 'string') {
    name = names.find((n) => n.toLowerCase() === sheet.toLowerCase()); // Excel compares names ignoring case
    if (name === undefined && /^\d+$/.test(sheet)) name = names[Number(sheet)];
  }
  if (name === undefined || !Object.hasOwn(wb.Sheets, name)) throw new TransformError(`${W}: no sheet ${JSON.stringify(sheet ?? 0)} (the workbook has ${names.length})`);
  return name;
}

export const run: TransformRun = (data, args) => {
  const { value, write } = valueKey(data, args, W);
  const encoding = encodingArg(args.encoding, ['base64', 'base64url'] as const, W);
  if (args.headers !== undefined && typeof args.headers !== 'boolean') throw new TransformError(`${W}: headers must be true or false`);
  const headers = args.headers !== false;
  const limit = count(args.limit, 10_000, 'limit');
  const max = byteBound(args.max_document_bytes, DEFAULT_MAX_DOCUMENT_BYTES, W, 'max_document_bytes');
  const sheet = args.sheet;
  if (sheet !== undefined && sheet !== null && typeof sheet !== 'string' && !(typeof sheet === 'number' && Number.isInteger(sheet)))
    throw new TransformError(`${W}: sheet must be a sheet name or a 0-based index`);
  if (value === undefined || value === null) return write(null);
  const bytes = decodeBinary(value, encoding, W, max, 'max_document_bytes');
  if (bytes.length < 8) throw new TransformError(`${W}: the value is not an .xlsx, .xls or .ods file`);
  const input = vetted(bytes, 8 * max);
  let wb: WorkBook;
  try {
    wb = withDeadline(() => read(input, {
      type: 'buffer', dense: true, cellNF: true, cellDates: false, cellFormula: false, cellHTML: false, cellText: false,
      cellStyles: false, bookVBA: false, bookFiles: false, bookDeps: false, sheetStubs: false, WTF: false,
      sheetRows: limit + (headers ? 1 : 0) + ROW_SLACK,
      // Parse only the wanted sheet (names match ignoring case; a digit string may be an index).
      ...(sheet === undefined || sheet === null ? { sheets: 0 } : typeof sheet === 'string' && /^\d+$/.test(sheet) ? { sheets: [sheet, Number(sheet)] } : { sheets: sheet as string | number }),
    }), deadlineMs, `${W}: reading the file`);
  } catch (e) {
    if (e instanceof TransformError) throw e;
    const why = e instanceof Error ? e.message : String(e);
    throw new TransformError(`${W}: the file could not be read${/password|encrypt/i.test(why) ? ' (it is password-protected)' : ''}`);
  }
  const name = pickSheet(wb, sheet);
  const ws = wb.Sheets[name]! as { '!data'?: Parameters<typeof sheetRows>[0] };
  const date1904 = Boolean(wb.Workbook?.WBProps?.date1904);
  return write(sheetRows(ws['!data'], { headers, limit, date1904, maxCells: MAX_CELLS, maxChars: 4 * max }));
};
