// What the upstream actually receives for each body and header setting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools, http } from '../../runtime/actions/http.ts';
import { ctx, startUpstream } from './helpers.ts';

describe('request encoding', () => {
  let up: Awaited<ReturnType<typeof startUpstream>>;
  beforeAll(async () => { up = await startUpstream({ '/echo': (_q, res) => res.end('ok') }); });
  afterAll(async () => { await closeHttpPools(); await up.close(); });
  const url = () => `${up.url}/echo?x=1`;

  it('defaults to GET with no body', async () => {
    const out = await http({ url: url() }, ctx());
    expect(out.ok).toBe(true);
    expect(up.last()).toMatchObject({ method: 'GET', url: '/echo?x=1', body: '' });
    expect(up.last().headers['content-type']).toBeUndefined();
  });

  it('passes extension methods through as tokens', async () => {
    await http({ url: url(), method: 'PROPFIND' }, ctx());
    expect(up.last().method).toBe('PROPFIND');
  });

  it('sends a mapping or array as JSON with application/json', async () => {
    await http({ url: url(), method: 'POST', body: { a: 1, b: [true, null] } }, ctx());
    expect(up.last().headers['content-type']).toBe('application/json');
    expect(JSON.parse(up.last().body)).toEqual({ a: 1, b: [true, null] });
    await http({ url: url(), method: 'POST', body: [1, 'two'] }, ctx());
    expect(up.last().body).toBe('[1,"two"]');
  });

  it('sends a string as is, and keeps a configured content-type', async () => {
    await http({ url: url(), method: 'POST', body: 'a=1&b=2', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }, ctx());
    expect(up.last().body).toBe('a=1&b=2');
    expect(up.last().headers['content-type']).toBe('application/x-www-form-urlencoded');
    await http({ url: url(), method: 'POST', body: '{"raw":true}', data_type: 'json' }, ctx());
    expect(up.last().body).toBe('{"raw":true}');
    expect(up.last().headers['content-type']).toBe('application/json');
    await http({ url: url(), method: 'POST', body: 'plain' }, ctx());
    expect(up.last().headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('does not override a content-type given for a mapping body', async () => {
    await http({ url: url(), method: 'PUT', body: { a: 1 }, headers: { 'content-type': 'application/vnd.api+json' } }, ctx());
    expect(up.last().headers['content-type']).toBe('application/vnd.api+json');
    expect(up.last().body).toBe('{"a":1}');
  });

  it('encodes per data_type: ndjson, csv, xml', async () => {
    await http({ url: url(), method: 'POST', data_type: 'jsonl', body: [{ a: 1 }, { b: 2 }] }, ctx());
    expect(up.last().body).toBe('{"a":1}\n{"b":2}\n');
    expect(up.last().headers['content-type']).toBe('application/x-ndjson');
    await http({ url: url(), method: 'POST', data_type: 'csv', body: [{ id: 1, name: 'x,y' }, { id: 2, extra: 'z' }] }, ctx());
    expect(up.last().body).toBe('id,name,extra\n1,"x,y",\n2,,z\n');
    expect(up.last().headers['content-type']).toBe('text/csv; charset=utf-8');
    await http({ url: url(), method: 'POST', data_type: 'xml', body: { order: { '@_id': '7', item: ['a', 'b'] } } }, ctx());
    expect(up.last().body).toBe('<order id="7"><item>a</item><item>b</item></order>');
  });

  it('sends base64_bytes as raw bytes', async () => {
    await http({ url: url(), method: 'PUT', base64_bytes: Buffer.from('héllo').toString('base64') }, ctx());
    expect(up.last().body).toBe('héllo');
    expect(up.last().headers['content-type']).toBe('application/octet-stream');
    const bad = await http({ url: url(), method: 'PUT', base64_bytes: 'not base64!' }, ctx());
    expect(bad).toMatchObject({ ok: false, failure: { kind: 'other' }, error: 'base64_bytes is not valid base64' });
  });

  it('coerces header values to strings and drops null ones', async () => {
    await http({ url: url(), headers: { 'X-Num': 42, 'X-Bool': false, 'X-Obj': { a: 1 }, 'X-Null': null } }, ctx());
    const h = up.last().headers;
    expect([h['x-num'], h['x-bool'], h['x-obj'], h['x-null']]).toEqual(['42', 'false', '{"a":1}', undefined]);
  });

  it('rejects an unknown data_type or bad URL before sending', async () => {
    const n = up.received.length;
    expect(await http({ url: url(), data_type: 'yaml' }, ctx())).toMatchObject({ ok: false, failure: { kind: 'other' } });
    expect((await http({ url: 'ftp://x/y' }, ctx())).error).toMatch(/unsupported URL scheme/);
    expect((await http({ url: url(), proxy: 'socks5://p:1' }, ctx())).error).toBe('http.proxy must be an http:// or https:// URL');
    expect((await http({ url: url(), ca: 'not a pem' }, ctx())).error).toMatch(/http\.ca contains no PEM certificate/);
    expect(up.received.length).toBe(n);
  });

  it('reuses one keep-alive connection per origin across runs', async () => {
    for (let i = 0; i < 6; i++) await http({ url: url() }, ctx());
    // undici may open a second socket while the first finishes its bookkeeping; never one per call.
    const ports = new Set(up.received.slice(-6).map((r) => r.remotePort));
    expect(ports.size).toBeLessThanOrEqual(2);
  });
});
