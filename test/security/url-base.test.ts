// Issue 9 follow-up: a request or action marker that starts the URL template supplies the base
// (`a|body::url|/items/a|body::id|`). Its value must be an absolute http(s) URL without query or
// fragment; the rest of the template keeps the per-position encoding. Both paths.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { compileConfig } from '../../compiler/project.ts';
import { planOf, serveOn, testEnv } from '../support/plans.ts';
import { startUpstream } from '../http-action/helpers.ts';

let up: Awaited<ReturnType<typeof startUpstream>>;
const apps: Array<{ close(): Promise<unknown> }> = [];
beforeAll(async () => { up = await startUpstream({}); });
afterAll(async () => { for (const a of apps) await a.close(); await up.close(); await closeHttpPools(); });

const CONFIG = `
interfaces:
  call:
    method: POST
    actions:
      - name: Fetch
        http:
          url: a|body::base|/items/a|body::id|?q=a|body::q|
          expect_status: [2xx, 404]
        output: http
`;

describe.each(['compiled', 'interpreted'] as const)('%s', (mode) => {
  let url = '';
  beforeAll(async () => {
    const s = await serveOn([await planOf('base.yaml', mode, CONFIG)], testEnv());
    apps.push(s.app);
    url = s.url;
  });
  const call = (body: Record<string, unknown>) => fetch(`${url}/call`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const sent = async (body: Record<string, unknown>) => {
    const before = up.received.length;
    const r = await call(body);
    expect(r.status).toBe(200); // the upstream has no routes: its 404 is accepted by expect_status
    expect(up.received.length).toBe(before + 1);
    return up.last()!.url;
  };
  const refusal = async (body: Record<string, unknown>) => {
    const before = up.received.length;
    const r = await call(body);
    expect(up.received.length).toBe(before);
    return { status: r.status, message: ((await r.json()) as { error: { message: string } }).error.message };
  };

  it('a base then the path', async () => {
    expect(await sent({ base: up.url, id: 7, q: 'x' })).toBe('/items/7?q=x');
  });
  it('a base with a trailing slash does not double the slash', async () => {
    expect(await sent({ base: `${up.url}/`, id: 7, q: 'x' })).toBe('/items/7?q=x');
  });
  it('a base path is kept', async () => {
    expect(await sent({ base: `${up.url}/api/v2/`, id: 7, q: 'x' })).toBe('/api/v2/items/7?q=x');
  });
  it('a request value after the base stays in its segment: .., ?, #, @, %2F', async () => {
    expect(await sent({ base: up.url, id: '../admin', q: '' })).toBe('/items/..%2Fadmin?q=');
    expect(await sent({ base: up.url, id: 'a?admin=1#f', q: '' })).toBe('/items/a%3Fadmin%3D1%23f?q=');
    expect(await sent({ base: up.url, id: 'u@evil.example', q: '' })).toBe('/items/u%40evil.example?q=');
    expect(await sent({ base: up.url, id: '%2F..%2F', q: '' })).toBe('/items/%252F..%252F?q=');
    expect(await refusal({ base: up.url, id: '..', q: '' })).toEqual({ status: 400, message: expect.stringContaining('would move the URL path') });
  });
  it('a base with a query or a fragment is refused, naming the marker', async () => {
    expect(await refusal({ base: `${up.url}/?admin=1`, id: 1 })).toEqual({ status: 400, message: expect.stringContaining('a|body::base| starts the URL but its value has a query or fragment') });
    expect(await refusal({ base: `${up.url}#x`, id: 1 })).toEqual({ status: 400, message: expect.stringContaining('has a query or fragment') });
    expect(await refusal({ base: `${up.url}?`, id: 1 })).toEqual({ status: 400, message: expect.stringContaining('has a query or fragment') });
  });
  it('a base that is not an absolute http(s) URL is refused', async () => {
    expect(await refusal({ base: '127.0.0.1:1', id: 1 })).toEqual({ status: 400, message: expect.stringContaining('a|body::base| starts the URL but its value is not an absolute URL') });
    expect(await refusal({ base: 'not a url', id: 1 })).toEqual({ status: 400, message: expect.stringContaining('is not an absolute URL') });
    expect(await refusal({ base: 'ftp://127.0.0.1/', id: 1 })).toEqual({ status: 400, message: expect.stringContaining('a|body::base| starts the URL but its scheme ftp: is not http or https') });
    expect(await refusal({ base: 'file:///etc/passwd', id: 1 })).toEqual({ status: 400, message: expect.stringContaining('is not http or https') });
    expect(await refusal({ id: 1 })).toEqual({ status: 400, message: expect.stringContaining('is not an absolute URL') });
  });
});

describe('a base marker at check time', () => {
  const refused = (url: string) => {
    const c = compileConfig('base.yaml', `interfaces:\n  x:\n    actions:\n      - name: Prev\n        input: { host: h, url: 'http://h' }\n      - name: A\n        http:\n          url: "${url}"\n`);
    return c.ok ? undefined : c.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`).join('\n');
  };
  it('starting the URL and followed by a path, query or fragment compiles', () => {
    expect(refused('a|body::url|/health')).toBeUndefined();
    expect(refused('a|Prev::url|?x=a|params::x|')).toBeUndefined();
  });
  it('followed by anything that would extend the host is refused', () => {
    expect(refused('a|body::host|.example.com/x')).toMatch(/^8:11 a\|body::host\| starts the URL but is followed by "\.example\.com"/);
    expect(refused('a|body::url|:8080/x')).toMatch(/would extend its host/);
    expect(refused('a|body::url|a|params::p|/x')).toMatch(/would extend its host/);
  });
  it('a request marker anywhere else in the scheme or host is still refused with its position', () => {
    expect(refused('http://a|params::region|.api.example.com/v1')).toMatch(/^8:11 a\|params::region\| sets the scheme or host of the URL/);
    expect(refused('https://api.a|body::tld|/v1')).toMatch(/sets the scheme or host/);
    expect(refused('a|var::BASE|.a|body::sub|/v1')).toMatch(/a\|body::sub\| sets the scheme or host/);
  });
});
