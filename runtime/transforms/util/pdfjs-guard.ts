// pdf.js (bundled by unpdf 1.7.0) prefetches page dictionaries (getPageDict caches
// xref.fetchAsync(kid) promises with no handler); on a malformed file such a prefetch rejects and
// nobody awaits it. Under Node's default --unhandled-rejections=throw that one upload would kill
// the server, so while parse_pdf is in use, rejections that are pdf.js's own exceptions are
// dropped. Every other rejection keeps Node's default: when this is the only listener it is
// raised as an uncaught exception, as it would have been without a listener.

/**
 * pdf.js's exceptions (XRefEntryException, ParserEOFException, FormatError... more than it exports)
 * all inherit from BaseException, whose prototype is an Error made inside BaseExceptionClosure.
 */
export function isPdfjsError(reason: unknown): boolean {
  if (!(reason instanceof Error)) return false;
  const base = Object.getPrototypeOf(Object.getPrototypeOf(reason)) as { stack?: unknown } | null;
  return typeof base?.stack === 'string' && base.stack.includes('BaseExceptionClosure');
}

let installed = false;

export function guardPdfjsRejections(): void {
  if (installed) return;
  installed = true;
  process.on('unhandledRejection', function pdfjsLeak(reason) {
    if (isPdfjsError(reason)) return;
    if (process.listenerCount('unhandledRejection') === 1) throw reason;
  });
}
