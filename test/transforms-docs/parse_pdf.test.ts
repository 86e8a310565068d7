// PDFs generated here with pdf-lib, read back through `run` (async: the chain awaits it).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDocumentProxy } from 'unpdf';
import { isPdfjsError } from '../../runtime/transforms/util/pdfjs-guard.ts';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { run } from '../../runtime/transforms/parse_pdf.ts';
import { transformSpecs } from '../../runtime/transforms/specs.ts';
import { at, frozen, refuses, scope } from './helpers.ts';

let pdf: Buffer;
const parse = async (file: unknown, args: Record<string, unknown> = {}) => ((await run(frozen({ file, keep: 1 }), { value: at('file'), key: 'text', ...args }, scope)) as any);

async function make(pages: string[][], size = 12): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = doc.addPage([300, 400]);
    lines.forEach((line, i) => page.drawText(line, { x: 5, y: 380 - i * size * 1.5, size, font }));
  }
  return Buffer.from(await doc.save());
}

beforeAll(async () => {
  pdf = await make([['Invoice 42', 'Total: 1.234,50 € — café'], [], ['Page three']]);
});

describe('parse_pdf', () => {
  it('is asynchronous and lowers value as a path', () => expect(transformSpecs.parse_pdf).toEqual({ fields: { value: 'path' }, async: true }));

  it('extracts the text, pages joined by a blank line, and keeps the rest of the data', async () => {
    const out = await parse(pdf.toString('base64'));
    expect(out.keep).toBe(1);
    expect(out.text).toBe('Invoice 42\nTotal: 1.234,50 € — café\n\n\n\nPage three');
  });

  it('pages: true gives one string per page; base64url is accepted', async () => {
    expect((await parse(pdf.toString('base64url'), { pages: true, encoding: 'base64url' })).text).toEqual([
      'Invoice 42\nTotal: 1.234,50 € — café', '', 'Page three',
    ]);
  });

  it('runs again on the same input (pdf.js must not detach the caller’s bytes)', async () => {
    const b64 = pdf.toString('base64');
    const [a, b] = await Promise.all([parse(b64), parse(b64)]);
    expect(a.text).toBe(b.text);
  });

  it('bounds the decoded size and the page count', async () => {
    await refuses(() => parse(pdf.toString('base64'), { max_document_bytes: 100 }), /over max_document_bytes \(100\)/);
    const many = await make(Array.from({ length: 1001 }, () => []));
    await refuses(() => parse(many.toString('base64')), /has 1001 pages; at most 1000 are read/);
  });

  it('bounds the text (4 characters per allowed input byte)', async () => {
    // Content streams are deflated: 90,000 characters of text in a file of a few KB.
    const wordy = await make(Array.from({ length: 3 }, () => Array.from({ length: 100 }, () => 'x'.repeat(300))), 2);
    expect(wordy.length * 4).toBeLessThan(90_000);
    await refuses(() => parse(wordy.toString('base64'), { max_document_bytes: wordy.length }), /the text is over \d+ characters/);
  });

  it('fails cleanly on what is not a readable PDF', async () => {
    await refuses(() => parse(Buffer.from('hello world').toString('base64')), /not a PDF/);
    await refuses(() => parse(Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(500, 0x41)]).toString('base64')), /could not be read/);
    await refuses(() => parse(pdf.subarray(0, pdf.length / 2).toString('base64')), /could not be read|not a PDF/);
    await refuses(() => parse('%%%'), /not valid base64/);
    await refuses(() => parse(7), /must be base64 text, got a number/);
    await refuses(() => parse(pdf.toString('base64'), { pages: 'yes' }), /pages must be true or false/);
  });

  it('an absent value gives null', async () => {
    expect((await parse(null)).text).toBeNull();
  });

  it('recognises pdf.js exceptions and nothing else', async () => {
    const e = await getDocumentProxy(new Uint8Array(Buffer.from('%PDF-1.7 nothing else'))).catch((x: unknown) => x);
    expect(isPdfjsError(e)).toBe(true);
    for (const x of [new Error('x'), new TypeError('t'), Object.assign(new Error('n'), { name: 'FormatError' }), 'FormatError', null]) expect(isPdfjsError(x)).toBe(false);
  });
});

// In a plain node process (vitest installs its own rejection listener, which would hide a crash).
describe('parse_pdf: the process survives what pdf.js leaks', () => {
  const node = (code: string) => spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)), encoding: 'utf8', timeout: 30_000,
  });

  it('a malformed PDF whose page prefetch rejects unhandled fails the transform, not the process', () => {
    const r = node(`
      import { readFileSync } from 'node:fs';
      import { run } from './runtime/transforms/parse_pdf.ts';
      const f = readFileSync('test/transforms-docs/fixtures/leaks-rejection.pdf').toString('base64');
      const msg = await run({ f }, { value: (d) => d.f, key: 't' }, {}).then(() => 'ok', (e) => e.name + ': ' + e.message);
      await new Promise((r) => setTimeout(r, 300));
      console.log('alive', msg);`);
    expect(r.stdout).toMatch(/alive TransformError: parse_pdf: the PDF could not be read/);
    expect(r.status).toBe(0);
  });

  it('other unhandled rejections still end the process, as without the guard', () => {
    const r = node(`
      import { guardPdfjsRejections } from './runtime/transforms/util/pdfjs-guard.ts';
      guardPdfjsRejections();
      Promise.reject(new Error('a real bug'));
      await new Promise((r) => setTimeout(r, 300));
      console.log('alive');`);
    expect(r.stdout).not.toMatch(/alive/);
    expect(r.stderr).toMatch(/a real bug/);
    expect(r.status).not.toBe(0);
  });
});
