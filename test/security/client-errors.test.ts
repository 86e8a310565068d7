// Issue 9, finding 9: requests the client must fix are 400/415 with a clear message, never 500, and
// custom_body JSON templates stay valid JSON whatever the request puts in them. Both paths.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planOf, serveOn, testEnv } from '../support/plans.ts';

const CONFIG = `
interfaces:
  orders:
    method: POST
    accepts:
      example: { id: 1 }
    actions:
      - name: A
        input: { id: a|body::id| }
        output: http
  loose:
    method: POST
    actions:
      - name: A
        input: { id: a|body::id| }
        output: http
  header:
    method: GET
    response:
      headers:
        x-id: a|params::id|
    actions:
      - name: A
        input: ok
        output: http
  shaped:
    method: GET
    response:
      custom_body: '{"id": "a|params::id|", "n": a|params::n|, "tags": ["a|params::t|"]}'
      http_code_on_error: 409
    actions:
      - name: A
        input: x
        assert:
          tests:
            - value: a|params::id|
              is_equal_to: never
`;

const apps: Array<{ close(): Promise<unknown> }> = [];
afterAll(async () => { for (const a of apps) await a.close(); });

describe.each(['compiled', 'interpreted'] as const)('%s', (mode) => {
  let url = '';
  beforeAll(async () => {
    const s = await serveOn([await planOf('client.yaml', mode, CONFIG)], testEnv());
    apps.push(s.app);
    url = s.url;
  });
  const post = (path: string, body: string, type?: string) =>
    fetch(url + path, { method: 'POST', body, headers: type ? { 'content-type': type } : {} });
  const error = async (r: Response) => ((await r.json()) as { error: { status: number; message: string } }).error;

  it('an empty body to an interface that accepts JSON is a 400', async () => {
    const r = await post('/orders', '', 'application/json');
    expect(r.status).toBe(400);
    expect((await error(r)).message).toBe('interface "orders" takes a JSON body (see its accepts); the request has none');
  });

  it('another content type is a 415', async () => {
    const r = await post('/orders', '<id>1</id>', 'text/xml');
    expect(r.status).toBe(415);
    expect((await error(r)).message).toBe('interface "orders" takes application/json; the request sent text/xml');
    expect((await post('/orders', '{"id":2}', 'application/json')).status).toBe(200);
  });

  it('malformed JSON is a 400 naming the problem', async () => {
    const r = await post('/loose', '{"id":', 'application/json');
    expect(r.status).toBe(400);
    expect((await error(r)).message).toMatch(/^request body is not valid JSON/);
  });

  it('100k-deep JSON is a 400, not a stack overflow', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    for (const body of [deep, `{"id":${deep}}`]) {
      const r = await post('/loose', body, 'application/json');
      expect(r.status).toBe(400);
      expect((await error(r)).message).toBe('request body nests deeper than 256 levels');
    }
    const ok = await post('/loose', `{"id":${'['.repeat(200)}${']'.repeat(200)}}`, 'application/json');
    expect(ok.status).toBe(200);
  });

  it('CRLF copied into a response header is a 400, and no header is injected', async () => {
    const r = await fetch(`${url}/header?id=${encodeURIComponent('a\r\nSet-Cookie: x=1')}`);
    expect(r.status).toBe(400);
    expect(r.headers.get('set-cookie')).toBeNull();
    expect((await error(r)).message).toContain('response header "x-id" would carry a line break');
    expect((await fetch(`${url}/header?id=abc`)).headers.get('x-id')).toBe('abc');
  });

  it('custom_body stays valid JSON: values are escaped inside strings and JSON outside', async () => {
    const r = await fetch(`${url}/shaped?id=${encodeURIComponent('42","admin":true,"x":"')}&n=${encodeURIComponent('1, "admin": true')}&t=${encodeURIComponent('a\\"]')}`);
    expect(r.status).toBe(409);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await r.json()).toEqual({ id: '42","admin":true,"x":"', n: '1, "admin": true', tags: ['a\\"]'] });
  });
});
