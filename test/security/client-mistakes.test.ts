// Issue 29, section 4: client mistakes are 4xx with a clear message, not 500. A `delay` value from the
// request that is not a duration ("abc", -5), and a body of another JSON type than the interface's
// `accepts` declares (an array or a string where an object is expected: it failed inside the run's
// transforms with a 500). Both paths and the bundle. (Email refusals: test/command/email.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planOf, serveOn, testEnv } from '../support/plans.ts';
import { serveBundle } from '../support/bundle.ts';

const CONFIG = `
interfaces:
  wait:
    method: POST
    actions:
      - name: W
        delay: a|body::d|
      - name: A
        input: { ok: true }
        output: http
  rename:
    method: POST
    accepts:
      example: { id: 1 }
    actions:
      - name: A
        input: a|body|
        output: http
        post_transforms:
          - rename_attributes: { id: ident }
  list:
    method: POST
    accepts:
      schema: { type: array, items: { type: object } }
    actions:
      - name: A
        input: a|body|
        output: http
        post_transforms:
          - filter: { conditions: { x: { is_equal_to: 1 } } }
`;

const stops: Array<() => unknown> = [];
const apps: Array<{ close(): Promise<unknown> }> = [];
afterAll(async () => {
  for (const a of apps) await a.close();
  for (const s of stops) s();
});

const post = (url: string, body: string) => fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
const answer = async (r: Response) => ({ status: r.status, body: (await r.json()) as unknown });

function cases(base: () => string) {
  it.each([
    ['"abc"', 'delay: invalid duration "abc": expected milliseconds or text such as 500ms, 2s, 1m, 2h, 7d, 1h30m'],
    ['-5', 'delay: invalid duration -5: expected milliseconds or text such as 500ms, 2s, 1m, 2h, 7d, 1h30m'],
  ])('a delay of %s from the request is a 400 naming the value', async (d, why) => {
    expect(await answer(await post(`${base()}/wait`, `{"d": ${d}}`))).toEqual({ status: 400, body: { error: { status: 400, message: `action "W" refused: ${why}`, action: 'W' } } });
    expect((await post(`${base()}/wait`, '{"d": "5ms"}')).status).toBe(200);
  });

  it.each([
    ['rename', '[1, 2]', 'interface "rename" takes a JSON object body (see its accepts); the request sent an array'],
    ['rename', '"text"', 'interface "rename" takes a JSON object body (see its accepts); the request sent a string'],
    ['rename', '5', 'interface "rename" takes a JSON object body (see its accepts); the request sent a number'],
    ['list', '{"x": 1}', 'interface "list" takes a JSON array body (see its accepts); the request sent an object'],
  ])('a body of the wrong JSON type for %s (%s) is a 400 before anything runs', async (iface, body, message) => {
    expect(await answer(await post(`${base()}/${iface}`, body))).toEqual({ status: 400, body: { error: { status: 400, message } } });
  });

  it('bodies of the declared type run as before', async () => {
    expect(await answer(await post(`${base()}/rename`, '{"id": 7}'))).toEqual({ status: 200, body: { ident: 7 } });
    expect(await answer(await post(`${base()}/list`, '[{"x": 1}, {"x": 2}]'))).toEqual({ status: 200, body: [{ x: 1 }] });
  });
}

describe.each(['compiled', 'interpreted'] as const)('%s', (mode) => {
  let url = '';
  beforeAll(async () => {
    const s = await serveOn([await planOf('client-mistakes.yaml', mode, CONFIG)], testEnv());
    apps.push(s.app);
    url = s.url;
  });
  cases(() => url);
});

describe('bundle', () => {
  let url = '';
  beforeAll(async () => { url = await serveBundle('client-mistakes.yaml', CONFIG, {}, stops); }, 120_000);
  cases(() => url);
});
