// Reverse-proxy passthrough of the incoming request: body, method, query, headers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools, http } from '../../runtime/actions/http.ts';
import type { RequestData } from '../../runtime/run-state.ts';
import { ctx, startUpstream } from './helpers.ts';

const incoming: RequestData = {
  method: 'PATCH', path: '/in', params: { q: 'a b', page: '2' },
  headers: {
    'content-type': 'application/xml', 'content-length': '12', host: 'front.example', connection: 'keep-alive, x-hop',
    'x-hop': 'drop me', 'keep-alive': 'timeout=5', 'transfer-encoding': 'chunked', te: 'trailers', upgrade: 'h2c',
    'proxy-authorization': 'Basic xx', 'accept-encoding': 'gzip', 'x-trace': 't-1', authorization: 'Bearer client', accept: 'application/xml',
  },
  body: null, rawBody: '<a>ü</a>',
};

describe('reverse-proxy passthrough', () => {
  let up: Awaited<ReturnType<typeof startUpstream>>;
  beforeAll(async () => { up = await startUpstream({ '/api': (_q, res) => res.end('ok') }); });
  afterAll(async () => { await closeHttpPools(); await up.close(); });
  const call = (extra: Record<string, unknown>) => http({ url: `${up.url}/api?fixed=1&page=9`, ...extra }, ctx({ request: incoming }));

  it('forwards method, raw body with its content-type, and query (configured params win)', async () => {
    const out = await call({ method: 'POST', proxy_method: true, proxy_body: true, proxy_query: true });
    expect(out.ok).toBe(true);
    expect(up.last()).toMatchObject({ method: 'PATCH', body: '<a>ü</a>', url: '/api?fixed=1&page=9&q=a%20b' });
    expect(up.last().headers['content-type']).toBe('application/xml');
    expect(up.last().headers['x-trace']).toBeUndefined(); // headers only with proxy_headers
  });

  it('proxy_headers: true passes end-to-end headers, never hop-by-hop ones', async () => {
    await call({ proxy_headers: true });
    const h = up.last().headers;
    expect(h['x-trace']).toBe('t-1');
    expect(h.authorization).toBe('Bearer client');
    expect(h.accept).toBe('application/xml');
    for (const k of ['x-hop', 'keep-alive', 'transfer-encoding', 'te', 'upgrade', 'proxy-authorization', 'accept-encoding', 'content-type'])
      expect(h[k], k).toBeUndefined();
    expect(h.host).toBe(new URL(up.url).host);
    expect(h.connection).not.toContain('x-hop');
  });

  it('proxy_headers as a list passes only those; [] passes none', async () => {
    await call({ proxy_headers: ['X-Trace', 'Transfer-Encoding'] });
    expect(up.last().headers['x-trace']).toBe('t-1');
    expect(up.last().headers.accept).toBeUndefined();
    expect(up.last().headers['transfer-encoding']).toBeUndefined();
    await call({ proxy_headers: [] });
    expect(up.last().headers['x-trace']).toBeUndefined();
  });

  it('configured headers and auth settings win over passed-through ones', async () => {
    await call({ proxy_headers: true, headers: { 'X-Trace': 'mine' }, bearer_auth: 'tok' });
    expect(up.last().headers['x-trace']).toBe('mine');
    expect(up.last().headers.authorization).toBe('Bearer tok');
    await call({ proxy_body: true, headers: { 'content-type': 'text/plain' } });
    expect(up.last().headers['content-type']).toBe('text/plain');
  });

  it('refuses proxy_body together with another body', async () => {
    const out = await call({ proxy_body: true, body: { a: 1 } });
    expect(out.error).toBe('set only one request body: body/base64_bytes, proxy_body');
  });
});
