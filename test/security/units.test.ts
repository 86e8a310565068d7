// Small rules behind the security fixes: where a marker lands in a URL or a JSON template, what each
// position encodes, and the memory rate limiter's bound.
import { describe, expect, it } from 'vitest';
import { jsonPositions, urlPositions } from '../../compiler/lower/positions.ts';
import { lowerString } from '../../compiler/lower/values.ts';
import { textAs } from '../../runtime/values/escape.ts';
import { memoryLimiter } from '../../runtime/network/rate-limit.ts';
import type { Ref } from '../../runtime/ir.ts';

const escs = (e: ReturnType<typeof lowerString>) => (e.k === 'tmpl' ? e.parts.filter((p): p is Ref => typeof p !== 'string').map((r) => r.esc ?? 'as is') : []);

describe('marker positions', () => {
  it('in a URL: path segment, query, fragment; operator roots as is in the host', () => {
    expect(escs(urlPositions(lowerString('a|var::API|/v1/a|params::id|/x?q=a|params::q|&a|params::k|=1#a|params::f|', false), []))).toEqual(['as is', 'segment', 'query', 'query', 'fragment']);
    expect(escs(urlPositions(lowerString('https://a|secret::HOST|:8443/a|params::id|', false), []))).toEqual(['as is', 'segment']);
    expect(escs(urlPositions(lowerString('https://h/p?x=1#frag?a|params::q|', false), []))).toEqual(['fragment']);
    expect(() => urlPositions(lowerString('https://user:a|params::p|@h/', false), ['url'])).toThrow(/sets the scheme or host/);
    expect(escs(urlPositions(lowerString('a|body::url|/v1/a|params::id|?q=a|params::q|', false), []))).toEqual(['base', 'segment', 'query']);
  });

  it('in a JSON template: inside strings (escaped quotes respected) or as values; other text untouched', () => {
    expect(escs(jsonPositions(lowerString('{"a": "x\\"a|params::a|", "b": a|params::b|, "c": ["a|params::c|"]}', false)))).toEqual(['json-string', 'json', 'json-string']);
    expect(escs(jsonPositions(lowerString('Hello a|params::name|', false)))).toEqual(['as is']);
  });

  it('encodes each position', () => {
    expect(textAs('segment', 'a/b?c#d', 'm')).toBe('a%2Fb%3Fc%23d');
    expect(() => textAs('segment', '..', 'a|params::id|')).toThrow('a|params::id| is "..", which would move the URL path: refused');
    expect(textAs('query', 'a&b=c', 'm')).toBe('a%26b%3Dc');
    expect(textAs('base', 'HTTP://u:p@[::1]:81/a/b//', 'm')).toBe('http://u:p@[::1]:81/a/b');
    expect(textAs('base', 'https://h.example', 'm')).toBe('https://h.example');
    expect(textAs('json-string', 'say "hi"\n', 'm')).toBe('say \\"hi\\"\\n');
    expect(textAs('json', undefined, 'm')).toBe('null');
    expect(textAs('json', { a: [1] }, 'm')).toBe('{"a":[1]}');
  });
});

describe('memory rate limiter', () => {
  it('counts per key and window, and stays within its key bound', async () => {
    const l = memoryLimiter(3);
    expect(await l.hit('s', 'a', 1, 60_000, 0)).toEqual({ ok: true, retryAfterSec: 60 });
    expect(await l.hit('s', 'a', 1, 60_000, 59_500)).toEqual({ ok: false, retryAfterSec: 1 });
    expect((await l.hit('s', 'a', 1, 60_000, 60_000)).ok).toBe(true); // a new window
    for (const k of ['b', 'c', 'd', 'e']) await l.hit('s', k, 1, 60_000, 60_000);
    // 'a' was the oldest entry: evicted to keep the bound, so it starts over.
    expect((await l.hit('s', 'a', 1, 60_000, 60_001)).ok).toBe(true);
  });
});

describe('a deeply nested upstream response', () => {
  it('is refused as JSON instead of overflowing the stack later', async () => {
    const { decodeBody } = await import('../../runtime/actions/http/decode-body.ts');
    const deep = Buffer.from('['.repeat(100_000) + ']'.repeat(100_000));
    expect(decodeBody(deep, { status: 200, declared: 'json' }).error).toBe('response body is not valid json: nests deeper than 256 levels');
    expect(decodeBody(deep, { status: 200, contentType: 'application/json' }).data).toBe(deep.toString()); // only labelled: kept as text
  });
});

describe('JSON nesting bound', () => {
  // The walk is skipped when the text holds too few brackets to nest past the bound: the edges.
  it('256 levels pass and 257 are refused, whether or not brackets inside strings pad the text', async () => {
    const { parseJsonBounded } = await import('../../runtime/values/json-depth.ts');
    const nest = (n: number, inner = '1') => '['.repeat(n) + inner + ']'.repeat(n);
    expect(() => parseJsonBounded(nest(256))).not.toThrow();
    expect(() => parseJsonBounded(nest(257))).toThrow('nests deeper than 256 levels');
    const padded = (n: number) => `{"pad":"${'{['.repeat(300)}","v":${nest(n - 1)}}`;
    expect(() => parseJsonBounded(padded(256))).not.toThrow();
    expect(() => parseJsonBounded(padded(257))).toThrow('nests deeper than 256 levels');
    expect(() => parseJsonBounded(`[${nest(100)},${nest(256)}]`)).toThrow('nests deeper than 256 levels');
    expect(parseJsonBounded(`{"a":"${'['.repeat(600)}"}`)).toEqual({ a: '['.repeat(600) });
    // Objects count as arrays do, also beside wide siblings the walk passes first.
    const objects = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
    expect(() => parseJsonBounded(objects(256))).not.toThrow();
    expect(() => parseJsonBounded(objects(257))).toThrow('nests deeper than 256 levels');
    const wide = (n: number) => `[${Array.from({ length: 300 }, (_, i) => `{"i":${i},"t":[1]}`).join(',')},${objects(n - 1)}]`;
    expect(() => parseJsonBounded(wide(256))).not.toThrow();
    expect(() => parseJsonBounded(wide(257))).toThrow('nests deeper than 256 levels');
  });
});
