// The `proxy` setting, through a real local forward proxy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools, http } from '../../runtime/actions/http.ts';
import { startForwardProxy } from './forward-proxy.ts';
import { closedPort, ctx, json, startUpstream } from './helpers.ts';

describe('proxy', () => {
  let up: Awaited<ReturnType<typeof startUpstream>>;
  let proxy: Awaited<ReturnType<typeof startForwardProxy>>;
  beforeAll(async () => {
    up = await startUpstream({ '/data': (req, res) => json(res, 200, { via: req.headers.via ?? null, q: req.url }) });
    proxy = await startForwardProxy();
  });
  afterAll(async () => { await closeHttpPools(); await proxy.close(); await up.close(); });

  it('sends plain-http requests to the proxy in absolute form', async () => {
    const out = await http({ url: `${up.url}/data?x=1`, method: 'POST', body: { a: 1 }, proxy: proxy.url }, ctx());
    expect(out).toMatchObject({ ok: true, status: 200, data: { q: '/data?x=1' } });
    expect(proxy.seen[proxy.seen.length - 1]).toMatchObject({ method: 'POST', url: `${up.url}/data?x=1` });
    expect(JSON.parse(up.last().body)).toEqual({ a: 1 });
  });

  it('keeps proxied and direct connections apart (pooled per proxy and origin)', async () => {
    const n = proxy.seen.length;
    await http({ url: `${up.url}/data`, proxy: proxy.url }, ctx());
    await http({ url: `${up.url}/data` }, ctx());
    await http({ url: `${up.url}/data`, proxy: proxy.url }, ctx());
    expect(proxy.seen.length - n).toBe(2);
  });

  it('sends proxy credentials from the proxy URL as Proxy-Authorization, never to the upstream', async () => {
    await http({ url: `${up.url}/data`, proxy: `http://al%40ce:p%3Ass@127.0.0.1:${proxy.port}` }, ctx());
    expect(proxy.seen[proxy.seen.length - 1].proxyAuthorization).toBe(`Basic ${Buffer.from('al@ce:p:ss').toString('base64')}`);
    expect(up.last().headers['proxy-authorization']).toBeUndefined();
  });

  it('classifies an unreachable proxy as connect', async () => {
    const port = await closedPort();
    const out = await http({ url: `${up.url}/data`, proxy: `http://127.0.0.1:${port}` }, ctx());
    expect(out.failure).toEqual({ kind: 'transport', cls: 'connect' });
  });

  it('refuses a non-http proxy URL', async () => {
    expect((await http({ url: `${up.url}/data`, proxy: 'socks5://127.0.0.1:1' }, ctx())).error).toBe('http.proxy must be an http:// or https:// URL');
    expect((await http({ url: `${up.url}/data`, proxy: '' }, ctx())).error).toBe('http.proxy must be an http:// or https:// URL');
  });
});
