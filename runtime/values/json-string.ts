// A string as JSON text, byte for byte what JSON.stringify(s) gives. JSON.stringify of a string is a
// call into V8's C++ serialiser (about 2,000 instructions for a short string, under callgrind); most
// strings written per request (ids, names, paths) need no escape at all, and a scan proves that.

/** Longer strings go to JSON.stringify directly: its own scan is faster per character. */
const SCAN_MAX = 256;

/** JSON.stringify(s): quoted as is when nothing in it needs an escape (`"`, `\`, a control
 *  character, a surrogate: JSON.stringify escapes a lone one), else JSON.stringify's own text. */
export function jsonString(s: string): string {
  if (s.length > SCAN_MAX) return JSON.stringify(s);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(s);
  }
  return `"${s}"`;
}
