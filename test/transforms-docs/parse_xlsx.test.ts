// Spreadsheets generated here with @e965/xlsx in each format, parsed back; hostile files refused.
import { beforeAll, describe, expect, it } from 'vitest';
import * as XLSX from '@e965/xlsx';
import { readFileSync } from 'node:fs';
import { run, setParseDeadline } from '../../runtime/transforms/parse_xlsx.ts';
import { transformSpecs } from '../../runtime/transforms/specs.ts';
import { withDeadline } from '../../runtime/transforms/util/deadline.ts';
import { at, frozen, refuses, scope } from './helpers.ts';

const CFB = (XLSX as any).CFB;
const formats = ['xlsx', 'xls', 'ods'] as const;
const files: Record<string, string> = {};
const parse = (file: string, args: Record<string, unknown> = {}) => (run(frozen({ file }), { value: at('file'), key: 'rows', ...args }, scope) as any).rows;

// 45352 is 2024-03-01 in the 1900 date system; formats make numbers dates (as Excel stores them).
const date = (v: number, z = 'yyyy-mm-dd') => ({ t: 'n', v, z });
function book(): XLSX.WorkBook {
  const ws = XLSX.utils.aoa_to_sheet([
    ['name', 'qty', 'when', 'at', 'ok', '', 'name', '__proto__'],
    ['héllo 😀 𝄞 中文', 3, null, null, true, null, 'x', 'p'],
    [],
    ['b', -2.5, null, null, false, 'extra', null, null],
    ['', 1e21, null, null, null, null, null, null],
  ]);
  Object.assign(ws, { C2: date(45352), D2: date(45352 + (13 * 3600 + 45 * 60 + 30) / 86400, 'yyyy-mm-dd hh:mm:ss'), C4: date(36525), D4: date(0.5, 'hh:mm:ss') });
  ws.B2 = { t: 'n', v: 3, f: '1+2' } as XLSX.CellObject; // a formula: its cached value is read
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, 'Data');
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['k', 'v'], [1, 'one'], [2, 'two']]), 'Second');
  return wb;
}
const write = (wb: XLSX.WorkBook, bookType: XLSX.BookType, o: Partial<XLSX.WritingOptions> = {}) =>
  (XLSX.write(wb, { type: 'buffer', bookType, ...o }) as Buffer).toString('base64');

/** Rewrites one part of a zip-based file (test setup only). */
function rezip(b64: string, edit: (name: string, text: string) => string, add?: Record<string, Buffer>): string {
  const z = CFB.read(Buffer.from(b64, 'base64'), { type: 'buffer' });
  z.FullPaths.forEach((p: string, i: number) => {
    const f = z.FileIndex[i];
    if (f.type === 2 && f.content) f.content = Buffer.from(edit(p.replace(/^Root Entry\//, ''), Buffer.from(f.content).toString('utf8')));
  });
  for (const [name, data] of Object.entries(add ?? {})) CFB.utils.cfb_add(z, name, data);
  return Buffer.from(CFB.write(z, { fileType: 'zip', type: 'buffer', compression: true })).toString('base64');
}

beforeAll(() => {
  for (const f of formats) files[f] = write(book(), f);
});

// JSON text: an object literal cannot hold an own "__proto__" key, and the header row has one.
const expected = JSON.parse(`[
  {"name":"héllo 😀 𝄞 中文","qty":3,"when":"2024-03-01","at":"2024-03-01T13:45:30","ok":true,"F":null,"name_2":"x","__proto__":"p"},
  {"name":"b","qty":-2.5,"when":"1999-12-31","at":"12:00:00","ok":false,"F":"extra","name_2":null,"__proto__":null},
  {"name":"","qty":1e21,"when":null,"at":null,"ok":null,"F":null,"name_2":null,"__proto__":null}]`);

describe('parse_xlsx', () => {
  it('lowers value as a path', () => expect(transformSpecs.parse_xlsx).toEqual({ fields: { value: 'path' } }));

  for (const f of formats) {
    it(`reads a generated .${f}: unicode (astral too), numbers, dates as ISO text, formulas, empty cells`, () => {
      const rows = parse(files[f]!);
      expect(JSON.stringify(rows)).toBe(JSON.stringify(expected));
      expect(Object.hasOwn(rows[0], '__proto__')).toBe(true);
      expect(({} as any).polluted).toBeUndefined();
    });
    it(`.${f} with headers: false gives arrays; blank rows skipped`, () => {
      expect(parse(files[f]!, { headers: false })).toEqual([
        ['name', 'qty', 'when', 'at', 'ok', '', 'name', '__proto__'],
        ['héllo 😀 𝄞 中文', 3, '2024-03-01', '2024-03-01T13:45:30', true, null, 'x', 'p'],
        ['b', -2.5, '1999-12-31', '12:00:00', false, 'extra', null, null],
        ['', 1e21, null, null, null, null, null, null],
      ]);
    });
    it(`.${f}: picks a sheet by name (any case), index or digit string`, async () => {
      const second = [{ k: 1, v: 'one' }, { k: 2, v: 'two' }];
      for (const sheet of ['Second', 'SECOND', 1, '1']) expect(parse(files[f]!, { sheet })).toEqual(second);
      await refuses(() => parse(files[f]!, { sheet: 'Nope' }), /no sheet "Nope" \(the workbook has 2\)/);
      await refuses(() => parse(files[f]!, { sheet: 5 }), /no sheet 5/);
    });
  }

  it('limit bounds the data rows; base64url is accepted', () => {
    expect(parse(files.xlsx!, { limit: 1 })).toEqual([expected[0]]);
    expect(parse(files.xlsx!, { limit: '2', headers: false })).toHaveLength(2);
    expect(parse(Buffer.from(files.ods!, 'base64').toString('base64url'), { encoding: 'base64url', sheet: 1 })).toHaveLength(2);
  });

  it('reads the 1904 date system', () => {
    const wb = book();
    wb.Workbook = { WBProps: { date1904: true } };
    expect(parse(write(wb, 'xlsx'))[0].when).toBe('2028-03-02'); // 45352 days after 1904-01-01
  });

  it('keeps astral characters written as character references (SheetJS alone reads them wrongly)', () => {
    const file = rezip(files.xlsx!, (name, t) => (name === 'xl/worksheets/sheet1.xml' ? t.replace('😀', '&#x1F600;').replace('𝄞', '&#119070;') : t));
    expect(Buffer.from(file, 'base64').includes('&#x1F600;')).toBe(false); // compressed: the pass must inflate to see it
    expect(parse(file)[0].name).toBe('héllo 😀 𝄞 中文');
  });

  it('refuses a zip bomb inside the file before SheetJS inflates it', async () => {
    const bomb = rezip(files.xlsx!, (_n, t) => t, { 'xl/media/bomb.bin': Buffer.alloc(4 * 1024 * 1024) });
    expect(Buffer.from(bomb, 'base64').length).toBeLessThan(100_000);
    await refuses(() => parse(bomb, { max_document_bytes: 200_000 }), /expands past 1600000 bytes; refused/);
    expect(parse(bomb)).toHaveLength(3); // under the default bound (8 x 16 MiB) it is an ordinary file
  });

  it('refuses a header that declares a huge size (SheetJS would allocate it)', async () => {
    const buf = Buffer.from(files.xlsx!, 'base64');
    const cd = buf.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    buf.writeUInt32LE(0xfffffff0, cd + 24);
    await refuses(() => parse(buf.toString('base64')), /expands past/);
  });

  it('accepts only .xlsx, .xls and .ods (SheetJS would read CSV, HTML... from any text)', async () => {
    const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');
    for (const f of [b64('a,b\n1,2\n'), b64('<table><tr><td>1</td></tr></table>'), b64('%PDF-1.7 ...'), b64(Buffer.alloc(64, 7)), ''])
      await refuses(() => parse(f), /not an .xlsx, .xls or .ods file/);
    const docx = CFB.utils.cfb_new();
    CFB.utils.cfb_add(docx, 'word/document.xml', Buffer.from('<w:document/>'));
    await refuses(() => parse(b64(Buffer.from(CFB.write(docx, { fileType: 'zip', type: 'buffer' })))), /the zip is not an .xlsx or .ods file/);
    await refuses(() => parse(b64(Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(600)]))), /could not be read/);
    await refuses(() => parse(files.xlsx!.slice(0, 200)), /not a readable zip/);
  });

  it('bounds the decoded size, the cells and the characters of output', async () => {
    await refuses(() => parse(files.xlsx!, { max_document_bytes: 1000 }), /over max_document_bytes \(1000\)/);
    const wide = XLSX.utils.aoa_to_sheet(Array.from({ length: 70 }, () => ['a']));
    wide.XFD1 = { t: 's', v: 'far' };
    wide['!ref'] = 'A1:XFD70';
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, wide, 'W');
    const wideFile = write(wb, 'xlsx');
    await refuses(() => parse(wideFile), /70 rows of 16384 columns is over 1000000 cells; lower limit/);
    expect(parse(wideFile, { limit: 5, headers: false })).toHaveLength(5);
    const long = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(long, XLSX.utils.aoa_to_sheet(Array.from({ length: 100 }, () => ['y'.repeat(5000)])), 'L');
    const longFile = write(long, 'xlsx', { bookSST: true, compression: true });
    expect(Buffer.from(longFile, 'base64').length).toBeLessThan(40_000);
    await refuses(() => parse(longFile, { max_document_bytes: 40_000, headers: false }), /over 160000 characters of output/);
  });

  it('checks its arguments; an absent value gives null', async () => {
    expect(parse(undefined as never)).toBeNull();
    await refuses(() => parse(42 as never), /must be base64 text, got a number/);
    await refuses(() => parse(files.xlsx!, { headers: 'yes' }), /headers must be true or false/);
    await refuses(() => parse(files.xlsx!, { limit: 0 }), /limit must be a whole number/);
    await refuses(() => parse(files.xlsx!, { encoding: 'hex' }), /encoding must be base64, base64url/);
    await refuses(() => parse(files.xlsx!, { sheet: { a: 1 } }), /sheet must be a sheet name or a 0-based index/);
    await refuses(() => parse('not base64!'), /not valid base64/);
  });

  it('stops SheetJS at a CPU deadline: a fuzzed .xls on which it loops forever is refused', async () => {
    const file = readFileSync(new URL('./fixtures/loops-forever.xls', import.meta.url)).toString('base64');
    setParseDeadline(300);
    try {
      const t = performance.now();
      await refuses(() => parse(file), /reading the file took over 0.3 s; refused/);
      expect(performance.now() - t).toBeLessThan(3000);
    } finally {
      setParseDeadline();
    }
    expect(parse(files.xls!)).toHaveLength(3); // the library is still usable afterwards
  });

  it('withDeadline interrupts any synchronous loop and passes other errors through', async () => {
    await refuses(() => withDeadline(() => { for (;;); }, 50, 'spin'), /spin took over 0.05 s; refused/);
    expect(withDeadline(() => 42, 50, 'x')).toBe(42);
    expect(() => withDeadline(() => { throw new RangeError('own'); }, 50, 'x')).toThrow(RangeError);
  });
});
