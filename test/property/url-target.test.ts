// parseTarget (runtime/actions/http/target.ts) splits a URL on the origin of the one before without
// parsing it when the parser would keep its path and query as written (a lookup's item URLs). Its
// target must be the parser's for every text: held to `new URL` on paths and queries made of the
// characters that decide it (dots, percent signs, quotes, spaces, backslashes, ?, #, @ and the rest).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTarget, targetOf, urlOf } from '../../runtime/actions/http/target.ts';

const origins = ['http://127.0.0.1:40000', 'https://api.example', 'http://a.example:8080'];
const tricky = ['a', 'Z', '0', '-', '_', '~', '.', '..', '%', '%2e', '%2E', '%2f', '%zz', '/', '//', '?', '#', '@', ':', ';', '=', '&', '+', ',', '!', '$',
  "'", '(', ')', '*', ' ', '\t', '\n', '\\', '"', '<', '>', '`', '{', '}', '|', '^', '[', ']', 'é', '\u0000', '\u007f'];

/** The parser's target and URL for `raw`, or the parser's refusal. */
function parsed(raw: string): { target: ReturnType<typeof targetOf>; href: string } | 'refused' {
  let u: URL;
  try { u = new URL(raw); } catch { return 'refused'; }
  return { target: targetOf(u), href: u.href };
}

describe('parseTarget on the origin of the URL before', () => {
  it('gives the parser\'s target (and URL) for any path and query', () => {
    let quick = 0;
    const text = fc.array(fc.constantFrom(...tricky), { maxLength: 12 }).map((parts) => parts.join(''));
    fc.assert(fc.property(fc.constantFrom(...origins), text, (origin, rest) => {
      parseTarget(`${origin}/seed`); // the URL before, on the same origin
      const raw = `${origin}/${rest}`;
      const want = parsed(raw);
      if (want === 'refused') { expect(() => parseTarget(raw)).toThrow(/invalid http.url/); return; }
      const got = parseTarget(raw);
      if (got.url === undefined) quick++;
      expect(got.target).toEqual(want.target);
      expect(urlOf(got).href).toBe(want.href);
    }), { numRuns: 20_000 });
    expect(quick).toBeGreaterThan(1000); // the split without a parse was taken, not only the parser
  });

  it('splits the usual item URLs without parsing them, and parses what it must', () => {
    parseTarget('http://127.0.0.1:40000/item/1');
    for (const [raw, quick] of [
      ['http://127.0.0.1:40000/item/2', true], ['http://127.0.0.1:40000/item/a%20b?x=1&y=2', true],
      ['http://127.0.0.1:40000/item/./2', false], ['http://127.0.0.1:40000/item/%2E%2e/2', false], ['http://127.0.0.1:40000/item/2#f', false],
      ['http://127.0.0.1:40000/item/2?', false], ['http://127.0.0.1:40000/a b', false], ["http://127.0.0.1:40000/a?b='c'", false],
      ['http://127.0.0.1:40000@evil.example/x', false], ['http://u:p@127.0.0.1:40000/x', false], ['http://127.0.0.1:4000/x', false],
    ] as const) {
      parseTarget('http://127.0.0.1:40000/item/1');
      const p = parseTarget(raw);
      expect([raw, p.url === undefined]).toEqual([raw, quick]);
      expect(p.target).toEqual(targetOf(new URL(raw)));
    }
  });

  it('never splits on the origin of a URL with userinfo (it became Basic auth)', () => {
    parseTarget('http://u:p@a.example/x');
    const p = parseTarget('http://u:p@a.example/y');
    expect(p.url).toBeDefined();
    expect(p.target.userinfo).toEqual({ user: 'u', pass: 'p' });
  });
});
