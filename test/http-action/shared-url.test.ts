// The configured URL's parse is shared by requests for the same text (runtime/actions/http/target.ts):
// what one request does to its URL (userinfo removed, the incoming query appended) must never reach
// the next request, nor the shared parse.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools, http } from '../../runtime/actions/http.ts';
import { parseTarget, urlOf } from '../../runtime/actions/http/target.ts';
import type { RequestData } from '../../runtime/run-state.ts';
import { ctx, startUpstream } from './helpers.ts';

const incoming = (params: Record<string, string>): RequestData => ({ method: 'GET', path: '/in', params, headers: {}, body: null, rawBody: '' });

describe('a URL shared by requests', () => {
  let up: Awaited<ReturnType<typeof startUpstream>>;
  beforeAll(async () => { up = await startUpstream({ '/api': (_q, res) => res.end('ok') }); });
  afterAll(async () => { await closeHttpPools(); await up.close(); });

  it('appends each request its own query, never the one before', async () => {
    const url = `${up.url}/api?fixed=1`;
    for (const q of ['a', 'b', 'c']) {
      expect((await http({ url, proxy_query: true }, ctx({ request: incoming({ q }) }))).ok).toBe(true);
      expect(up.last().url).toBe(`/api?fixed=1&q=${q}`);
    }
    // Without proxy_query, the same text sends the configured query alone.
    expect((await http({ url }, ctx())).ok).toBe(true);
    expect(up.last().url).toBe('/api?fixed=1');
    expect(urlOf(parseTarget(url)).href).toBe(url);
  });

  it('sends userinfo as Basic auth on every request and keeps it in the shared parse', async () => {
    const url = `${up.url.replace('//', '//u%C3%BC:p%3Aw@')}/api`;
    for (let i = 0; i < 2; i++) {
      expect((await http({ url }, ctx())).ok).toBe(true);
      expect(up.last().headers.authorization).toBe(`Basic ${Buffer.from('uü:p:w').toString('base64')}`);
      expect(up.last().url).toBe('/api');
    }
    const shared = parseTarget(url);
    expect(urlOf(shared).username).toBe('u%C3%BC');
    expect(shared.target.userinfo).toEqual({ user: 'uü', pass: 'p:w' });
    expect(shared.target.display).toBe(`${up.url}/api`);
  });

  it('parses again for another text, and refuses a bad one every time', () => {
    const a = parseTarget('http://a.example/x'), b = parseTarget('http://b.example/y');
    expect(a.target.origin).toBe('http://a.example');
    expect(b.target.origin).toBe('http://b.example');
    expect(parseTarget('http://a.example/x')).toEqual(a);
    expect(() => parseTarget('http://[bad')).toThrow(/invalid http.url/);
    expect(() => parseTarget('http://[bad')).toThrow(/invalid http.url/);
    expect(() => parseTarget('ftp://a.example/')).toThrow(/unsupported URL scheme/);
  });
});
