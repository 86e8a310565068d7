// The HTTP surface over a real socket, both paths: bodies (JSON, form, text), raw_body, headers,
// route params, default methods, uuid freshness, json_output, and the assert/expect_status hint.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { planOf, serveOn, testEnv } from '../support/plans.ts';
import { startUpstream, type Upstream } from '../support/upstream.ts';

let up: Upstream;
const apps: Array<{ close(): Promise<unknown> }> = [];
beforeAll(async () => { up = await startUpstream(); });
afterAll(async () => { for (const a of apps) await a.close(); await up.close(); await closeHttpPools(); });

const CONFIG = `
interfaces:
  echo:
    route: /echo/:id
    actions:
      - name: Req
        input:
          id: a|params::id|
          q: a|params::q|
          body: a|body|
          raw: a|raw_body|
          trace: a|header::X-Trace|
          ids: "a|uuid| a|uuid|"
        output: http
  only_put:
    method: PUT
    actions:
      - name: A
        input: put
        output: http
  picked:
    actions:
      - name: Upstream
        url: a|var::API|/customers/1
        json_output:
          who: .name
          tier: .tier | ascii_upcase
        output: http
  forbidden:
    actions:
      - name: Order
        url: a|var::API|/orders/8
        assert:
          tests:
            - value: a|Order::status|
              is_equal_to: 404
    show_error_detail: true
`;

async function both() {
  const out = [];
  for (const mode of ['compiled', 'interpreted'] as const) {
    const s = await serveOn([await planOf('surface.yaml', mode, CONFIG)], testEnv({ API: up.url }));
    apps.push(s.app);
    out.push(s.url);
  }
  return out;
}

describe('HTTP surface', () => {
  it('reads JSON, form and text bodies, raw_body, headers and route params', async () => {
    for (const url of await both()) {
      const j = await (await fetch(`${url}/echo/7?q=x`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-trace': 't1' }, body: '{"a": [1, 2]}' })).json() as Record<string, unknown>;
      expect(j).toMatchObject({ id: '7', q: 'x', body: { a: [1, 2] }, raw: '{"a": [1, 2]}', trace: 't1' });
      expect(String(j.ids)).toMatch(/^[0-9a-f-]{36} [0-9a-f-]{36}$/);
      const [u1, u2] = String(j.ids).split(' ');
      expect(u1).not.toBe(u2);
      const f = await (await fetch(`${url}/echo/8`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=Ada&lang=en' })).json();
      expect(f).toMatchObject({ id: '8', body: { name: 'Ada', lang: 'en' } });
      const t = await (await fetch(`${url}/echo/9`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' })).json();
      expect(t).toMatchObject({ body: 'hello', raw: 'hello', q: null });
      const g = await (await fetch(`${url}/echo/10`)).json();
      expect(g).toMatchObject({ id: '10', body: null, raw: '' });
    }
  });

  it('routes the declared method only; unknown routes answer a JSON 404', async () => {
    for (const url of await both()) {
      expect((await fetch(`${url}/only_put`, { method: 'PUT' })).status).toBe(200);
      const wrong = await fetch(`${url}/only_put`);
      expect(wrong.status).toBe(404);
      expect(await wrong.json()).toEqual({ error: { status: 404, message: 'no interface at GET /only_put' } });
    }
  });

  it('json_output picks values with jq', async () => {
    for (const url of await both()) {
      expect(await (await fetch(`${url}/picked`)).json()).toEqual({ who: 'Ada Lovelace', tier: 'GOLD' });
    }
  });

  it('an assert on a status expect_status refuses fails first and names the line to add', async () => {
    for (const url of await both()) {
      const res = await fetch(`${url}/forbidden`);
      expect(res.status).toBe(502);
      const { error } = (await res.json()) as { error: { detail: string } };
      expect(error.detail).toContain('the assert expects status 404, which expect_status does not accept: add "expect_status: [404]"');
      expect(error.detail).toContain('to the http settings of action "Order" (line 32)');
    }
  });
});
