// Failed statuses, Retry-After, redirects, header flattening and the response size bound.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools, createHttpAction, DEFAULT_MAX_RESPONSE_BYTES, http } from '../../runtime/actions/http.ts';
import { ctx, json, startUpstream } from './helpers.ts';

const NOW = Date.parse('2030-01-01T00:00:00Z');
const clock = { now: () => NOW, sleep: async () => {} };

describe('failed responses', () => {
  let up: Awaited<ReturnType<typeof startUpstream>>;
  beforeAll(async () => {
    up = await startUpstream({
      '/down': (_q, res) => json(res, 503, { error: 'maintenance' }, { 'retry-after': '120', 'x-req': 'r1' }),
      '/html': (_q, res) => { res.writeHead(502, { 'content-type': 'text/html' }); res.end('<h1>bad gateway</h1>'); },
      '/dated': (_q, res) => json(res, 429, {}, { 'retry-after': 'Tue, 01 Jan 2030 00:00:30 GMT' }),
      '/past': (_q, res) => json(res, 429, {}, { 'retry-after': 'Mon, 31 Dec 2029 23:00:00 GMT' }),
      '/junk': (_q, res) => json(res, 429, {}, { 'retry-after': 'soon' }),
      '/accepted': (_q, res) => json(res, 202, { state: 'pending' }, { 'retry-after': '5' }),
      '/moved': (_q, res) => { res.writeHead(302, { location: '/json' }); res.end(); },
      '/multi': (_q, res) => {
        res.setHeader('set-cookie', ['a=1; Expires=Wed, 21 Oct 2031 07:28:00 GMT', 'b=2']);
        res.setHeader('x-multi', ['one', 'two']);
        res.setHeader('Content-Type', 'text/plain');
        res.end('ok');
      },
      '/big': (_q, res) => { res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2048' }); res.end(Buffer.alloc(2048, 'a')); },
      '/chunked': (_q, res) => { res.writeHead(200); for (let i = 0; i < 8; i++) res.write(Buffer.alloc(512, 'b')); res.end(); },
      '/huge': (_q, res) => { res.writeHead(200); res.end(Buffer.alloc(DEFAULT_MAX_RESPONSE_BYTES + 1)); },
      '/fits': (_q, res) => { res.writeHead(200); res.end(Buffer.alloc(1024, 'c')); },
    });
  });
  afterAll(async () => { await closeHttpPools(); await up.close(); });

  it('keeps status, headers and decoded body, with a redacted URL in the error', async () => {
    const url = up.url.replace('http://', 'http://alice:s3cret@') + '/down?token=s3cret';
    const out = await http({ url }, ctx({ clock }));
    expect(out).toMatchObject({
      ok: false, status: 503, data: { error: 'maintenance' },
      failure: { kind: 'status', status: 503 }, retryAfterMs: 120_000,
    });
    expect(out.headers).toMatchObject({ 'x-req': 'r1', 'content-type': 'application/json' });
    expect(out.error).toBe(`HTTP 503 from GET ${up.url}/down (expected 2xx or 304)`);
    expect(out.error).not.toContain('s3cret');
    expect(up.last().url).toBe('/down?token=s3cret');
    expect(up.last().headers.authorization).toBe(`Basic ${Buffer.from('alice:s3cret').toString('base64')}`);
  });

  it('names the expectation in the error and decodes an error page leniently', async () => {
    const out = await http({ url: `${up.url}/html`, method: 'POST', data_type: 'json', expect_status: [200, '4xx'] }, ctx());
    expect(out.error).toBe(`HTTP 502 from POST ${up.url}/html (expected 200 or 4xx)`);
    expect(out.data).toBe('<h1>bad gateway</h1>');
  });

  it('reads Retry-After as seconds or an HTTP-date, ignoring junk', async () => {
    expect((await http({ url: `${up.url}/dated` }, ctx({ clock }))).retryAfterMs).toBe(30_000);
    expect((await http({ url: `${up.url}/past` }, ctx({ clock }))).retryAfterMs).toBe(0);
    expect((await http({ url: `${up.url}/junk` }, ctx({ clock }))).retryAfterMs).toBeUndefined();
    // Also on success: a 202 poll can pace its retries by it.
    expect(await http({ url: `${up.url}/accepted` }, ctx({ clock }))).toMatchObject({ ok: true, retryAfterMs: 5000 });
  });

  it('does not follow redirects; a 302 fails the default expect_status but can be accepted', async () => {
    const n = up.received.length;
    const out = await http({ url: `${up.url}/moved` }, ctx());
    expect(out).toMatchObject({ ok: false, status: 302, headers: { location: '/json' }, data: null });
    expect(up.received.length).toBe(n + 1);
    expect((await http({ url: `${up.url}/moved`, expect_status: '3xx' }, ctx())).ok).toBe(true);
  });

  it('flattens headers: lowercase keys, repeats joined with ", ", set-cookie with newlines', async () => {
    const h = (await http({ url: `${up.url}/multi` }, ctx())).headers!;
    expect(h['x-multi']).toBe('one, two');
    expect(h['set-cookie']).toBe('a=1; Expires=Wed, 21 Oct 2031 07:28:00 GMT\nb=2');
    expect(h['content-type']).toBe('text/plain');
  });

  it('bounds the response body by content-length and by streamed bytes', async () => {
    const small = createHttpAction({ maxResponseBytes: 1024 });
    for (const p of ['/big', '/chunked']) {
      const out = await small({ url: `${up.url}${p}` }, ctx());
      expect(out, p).toMatchObject({ ok: false, status: 200, failure: { kind: 'transport', cls: 'other' } });
      expect(out.error).toBe(`response body exceeds the 1024-byte limit (GET ${up.url}${p})`);
    }
    expect((await small({ url: `${up.url}/fits` }, ctx())).ok).toBe(true);
    // HEAD announces the full length without sending it.
    expect(await small({ url: `${up.url}/big`, method: 'HEAD' }, ctx())).toMatchObject({ ok: true, data: null, headers: { 'content-length': '2048' } });
  });

  it('applies a 32 MiB default bound', async () => {
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(32 * 1024 * 1024);
    const out = await http({ url: `${up.url}/huge` }, ctx());
    expect(out.error).toMatch(/exceeds the 33554432-byte limit/);
  });
});
