// Spec (What the service does, 10): "A config is re-parsed after interpolation." Where a field takes
// structured data, a whole-value secret/var/env marker whose text is a JSON object or array becomes
// that value; scalars, broken JSON, templates, string fields and request values stay text. Both paths.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeInterface, type RunResult } from '../../runtime/exec/run.ts';
import { systemClock } from '../../runtime/services.ts';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { irOf, planOf, testEnv } from '../support/plans.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';

let up: Awaited<ReturnType<typeof countingUpstream>>;
beforeAll(async () => {
  up = await countingUpstream({ '/echo': (req, res, _n, body) => json(res, 200, { body: JSON.parse(body), meta: req.headers['x-meta'] }) });
});
afterAll(async () => { await up.close(); await closeHttpPools(); });

const VARS = { JS: '{"a":1,"b":[true,null]}', IDS: ' [1, 2]', NUM: '5', BROKEN: '{not json', WORD: '[draft] notes' };
const SECRETS = { KEY: '{"kty":"oct"}', PIN: '0123' };

let seq = 0;
async function both(yaml: string, body: unknown, headers: Record<string, string> = {}): Promise<RunResult> {
  const out: RunResult[] = [];
  for (const mode of ['compiled', 'interpreted'] as const) {
    const plan = await planOf(`reparse${++seq}.yaml`, mode, yaml);
    const i = plan.interfaces[0]!;
    out.push(await executeInterface(plan, i, { method: 'POST', path: '/x', params: {}, headers, body, rawBody: JSON.stringify(body) }, { trigger: 'test', env: testEnv({ ...VARS, API: up.url }, SECRETS), services: { clock: systemClock } }));
  }
  expect(JSON.stringify(out[1]!.response)).toBe(JSON.stringify(out[0]!.response));
  return out[0]!;
}

describe('a config is re-parsed after interpolation', () => {
  it('input: operator JSON objects and arrays become values; scalars, broken JSON, templates and request values stay text', async () => {
    const r = await both(`interfaces:
  x:
    actions:
      - name: A
        input:
          inner: a|var::JS|
          ids: a|var::IDS|
          key: a|secret::KEY|
          num: a|var::NUM|
          pin: a|secret::PIN|
          broken: a|var::BROKEN|
          word: a|var::WORD|
          text: "js=a|var::JS|"
          picked: a|var::JS->b|
          fromBody: a|body::s|
          fromHeader: a|header::X-Js|
`, { s: '{"a":1}' }, { 'x-js': '[1]' });
    expect(r.response.body).toEqual({
      A: {
        inner: { a: 1, b: [true, null] }, ids: [1, 2], key: { kty: 'oct' }, num: '5', pin: '0123',
        broken: '{not json', word: '[draft] notes', text: 'js={"a":1,"b":[true,null]}', picked: [true, null],
        fromBody: '{"a":1}', fromHeader: '[1]',
      },
    });
  });

  it('an HTTP body takes the value; a header stays text', async () => {
    const r = await both(`interfaces:
  x:
    actions:
      - name: Post
        http:
          url: a|var::API|/echo
          method: POST
          headers: { X-Meta: a|var::JS| }
          body: { inner: a|var::JS|, ids: a|var::IDS| }
`, null);
    expect(r.response.body).toEqual({ Post: { body: { inner: { a: 1, b: [true, null] }, ids: [1, 2] }, meta: '{"a":1,"b":[true,null]}' } });
  });

  it('a lookup fans out over a variable holding a JSON array', async () => {
    const r = await both(`interfaces:
  x:
    actions:
      - name: Each
        lookup: a|var::IDS|
        actions:
          - name: Item
            input: { n: a|body| }
`, null);
    expect(r.response.body).toEqual({ Each: [{ n: 1 }, { n: 2 }] });
  });
});

describe('which fields take structured data (lowering tags the marker; both paths read it through one op)', () => {
  const tagged = (yaml: string) => JSON.stringify(irOf(`tags${++seq}.yaml`, yaml)).match(/"src":"a\|[^"]*\|"(,"esc":"[a-z-]+")?(,"json":true)?/g);
  it('string-or-list fields and publish data are tagged; a header, a URL and a template are not', () => {
    expect(tagged(`interfaces:
  x:
    actions:
      - name: Mail
        email: { to: a|var::TO|, subject: a|var::SUBJECT|, text: t }
      - name: Ws
        ws_publish: { channels: a|var::ROOMS|, data: a|var::JS| }
      - name: Get
        http: { url: a|var::API|, headers: { X-Meta: a|var::JS| } }
`)).toEqual([
      '"src":"a|var::TO|","json":true', '"src":"a|var::SUBJECT|"',
      '"src":"a|var::ROOMS|","json":true', '"src":"a|var::JS|","json":true',
      '"src":"a|var::API|"', '"src":"a|var::JS|"',
    ]);
  });
});
