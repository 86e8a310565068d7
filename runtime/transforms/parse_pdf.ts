// parse_pdf: {value, key, encoding?, pages?, max_document_bytes?} -> the text of the PDF at `value`
// (base64 or base64url), written at `key`: the pages' text joined with a blank line ("\n\n"), or
// with pages: true an array of one string per page. Per page, text items are joined as pdf.js
// reports them (a line break where it marks one), trailing spaces are cut and the page trimmed.
// Asynchronous (pdf.js is): `spec.async` makes the chain await it. The file is untrusted: its
// decoded size is bounded (max_document_bytes, default 16 MiB), at most 1000 pages are read, the
// text is bounded (4 characters per input byte), scripts stay off (isEvalSupported: false), no
// system fonts are read, and pdf.js's leaked rejections cannot crash the process (util/pdfjs-guard.ts).
// An absent or null value gives null.
import { getDocumentProxy } from 'unpdf';
import { byteBound, decodeBinary, encodingArg, DEFAULT_MAX_DOCUMENT_BYTES } from './util/bytes.ts';
import { valueKey } from './util/value-key.ts';
import { guardPdfjsRejections } from './util/pdfjs-guard.ts';
import { TransformError } from './types.ts';
import type { Scope } from '../scope.ts';

const W = 'parse_pdf';
const MAX_PAGES = 1000;

type TextItem = { str?: string; hasEOL?: boolean };

export async function run(data: unknown, args: any, _s: Scope): Promise<unknown> {
  const { value, write } = valueKey(data, args, W);
  const encoding = encodingArg(args.encoding, ['base64', 'base64url'] as const, W);
  if (args.pages !== undefined && typeof args.pages !== 'boolean') throw new TransformError(`${W}: pages must be true or false`);
  const max = byteBound(args.max_document_bytes, DEFAULT_MAX_DOCUMENT_BYTES, W, 'max_document_bytes');
  if (value === undefined || value === null) return write(null);
  const bytes = decodeBinary(value, encoding, W, max, 'max_document_bytes');
  // pdf.js tolerates junk before the header, as readers do; without a header it is not a PDF.
  if (!bytes.subarray(0, 1024).includes('%PDF-')) throw new TransformError(`${W}: the value is not a PDF`);
  const maxChars = 4 * max;
  guardPdfjsRejections(); // pdf.js leaks rejected prefetches on malformed files: util/pdfjs-guard.ts
  let doc: Awaited<ReturnType<typeof getDocumentProxy>> | undefined;
  try {
    // pdf.js takes ownership of (and detaches) the buffer it is given: hand it a copy.
    doc = await getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false, useSystemFonts: false, disableFontFace: true, verbosity: 0, stopAtErrors: false });
    if (doc.numPages > MAX_PAGES) throw new TransformError(`${W}: the PDF has ${doc.numPages} pages; at most ${MAX_PAGES} are read`);
    const pages: string[] = [];
    let chars = 0;
    for (let p = 1; p <= doc.numPages; p++) {
      const page = await doc.getPage(p);
      const content = await page.getTextContent();
      const text = (content.items as TextItem[]).map((it) => (it.str ?? '') + (it.hasEOL ? '\n' : '')).join('');
      const clean = text.replace(/[^\S\n]+\n/g, '\n').trim();
      if ((chars += clean.length + 2) > maxChars) throw new TransformError(`${W}: the text is over ${maxChars} characters`);
      pages.push(clean);
      page.cleanup();
    }
    return write(args.pages ? pages : pages.join('\n\n'));
  } catch (e) {
    if (e instanceof TransformError) throw e;
    const name = (e as { name?: string }).name;
    if (name === 'PasswordException') throw new TransformError(`${W}: the PDF is password-protected`);
    throw new TransformError(`${W}: the PDF could not be read (${e instanceof Error ? e.message : String(e)})`);
  } finally {
    await doc?.destroy();
  }
}
