// jsonString (runtime/values/json-string.ts) skips V8's serialiser for strings that need no escape;
// its text must be JSON.stringify's, byte for byte, for every string.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonString } from '../../runtime/values/json-string.ts';

describe('jsonString', () => {
  it('is JSON.stringify for any string (full Unicode, lone surrogates, controls)', () => {
    const anyChar = fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }));
    fc.assert(fc.property(anyChar, (s) => { expect(jsonString(s)).toBe(JSON.stringify(s)); }), { numRuns: 5000 });
  });

  it('escapes what JSON needs at every position, short and long', () => {
    for (const bad of ['"', '\\', '\n', '\u0000', '\u001f', '\ud800', '\udfff', '\u2028']) {
      for (const s of [bad, `a${bad}`, `${bad}b`, `x${'y'.repeat(300)}${bad}`]) expect(jsonString(s)).toBe(JSON.stringify(s));
    }
    expect(jsonString('\ud83d\ude00 ok')).toBe('"\ud83d\ude00 ok"'); // a pair is written as is
    expect(jsonString('')).toBe('""');
  });
});
