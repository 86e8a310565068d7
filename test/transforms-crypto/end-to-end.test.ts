// The new transforms and assertions in a config, through the fast path and the interpreter: the
// spec field kinds lower correctly, async transforms are awaited, secrets come from variables.
import bcryptjs from 'bcryptjs';
import { afterEach, describe, expect, it } from 'vitest';
import { executeInterface } from '../../runtime/exec/run.ts';
import { systemClock } from '../../runtime/services.ts';
import { setClock } from '../../runtime/transforms/util/clock.ts';
import { planOf, testEnv } from '../support/plans.ts';

afterEach(() => setClock());
const VARS = { HMAC: 'whsec_test', JWT: 'a-signing-secret-of-32-bytes-ok!', AES: 'k'.repeat(32) };

async function runBoth(yaml: string, body: unknown = null) {
  const out = [];
  for (const mode of ['compiled', 'interpreted'] as const) {
    const plan = await planOf('crypto.yaml', mode, yaml);
    const i = plan.interfaces[0]!;
    const request = { method: 'POST', path: i.route, params: {}, headers: {}, body, rawBody: JSON.stringify(body) };
    out.push(await executeInterface(plan, i, request, { trigger: 'test', env: testEnv(VARS), services: { clock: systemClock } }));
  }
  return out.map((r) => r.response);
}

describe('configs using the new transforms', () => {
  it('codecs, extraction and reshaping give the same answer on both paths', async () => {
    const [a, b] = await runBoth(`
interfaces:
  x:
    actions:
      - name: Page
        input: a|body|
        post_transforms:
          - extract_with_css: { value: html, selector: li, attribute: data-id, key: ids, all: true }
          - parse_csv: csv
          - yaml_to_json: { key: parsed, json_path: $.yaml }
          - generate_slug: { key: slug, json_path: title }
          - b64_encode: doc
          - replace_values: { find_str: "lit", new_str: LIT, target_value: unused }
          - flatten: { key_separator: _, target: $.parsed }
          - remove_attributes: [html, yaml]
`, { html: '<ul><li data-id="1">One</li><li>Two</li></ul>', csv: 'id,name\n1,Ann\n', doc: 'a|b: 1', yaml: 'k: [1, 2]',
      title: 'Hello World!', note: 'literal a|x| text' });
    expect(a).toEqual(b);
    expect(a!.body).toEqual({ Page: { csv: [{ id: '1', name: 'Ann' }], doc: 'YXxiOiAx', title: 'Hello World!', ids: ['1', null],
      note: 'LITeral a|x| text', parsed: { k_0: 1, k_1: 2 }, slug: 'hello-world' } });
  });

  // Regression: constant-folding a transform's fields must keep 'literal' fields uninterpolated.
  it("'literal' fields are not interpolated even when every field is constant", async () => {
    const [a, b] = await runBoth(`
interfaces:
  x:
    actions:
      - name: Page
        input: a|body|
        post_transforms:
          - replace_values: { find_str: "a|x|", new_str: ok, target_value: unused }
`, { note: 'literal a|x| text' });
    expect(a).toEqual(b);
    expect(a!.body).toEqual({ Page: { note: 'literal ok text' } });
  });

  it('async bcrypt and add_jwt, hmac with a variable secret verified by is_valid_hmac', async () => {
    setClock(() => 1_700_000_000_000);
    const [a, b] = await runBoth(`
interfaces:
  x:
    actions:
      - name: Sign
        input: { user: ann, payload: '{"paid":true}' }
        post_transforms:
          - bcrypt: { key: hash, value: a|body->password|, cost: 4 }
          - add_jwt: { key: jwt, secret: a|var::JWT|, data: [user], exp: 1h }
          - hmac: { key: sig, data: a|body->payload|, secret: a|var::HMAC| }
          - encrypt_value: { key: box, data: secret text, secret_key: a|var::AES|, nonce: random }
        assert:
          tests:
            - value: a|Sign->sig|
              is_valid_hmac: { secret: a|var::HMAC|, data: a|body->payload| }
      - name: Open
        input: a|Sign->box|
        post_transforms:
          - decrypt_value: { key: plain, value: a|Sign->box->value|, nonce: a|Sign->box->nonce|, tag: a|Sign->box->tag|, secret_key: a|var::AES| }
          - read_jwt: { key: claims, token: a|Sign->jwt| }
`, { password: 'hunter2', payload: '{"paid":true}' });
    for (const r of [a!, b!]) {
      expect(r.status).toBe(200);
      const body = r.body as any;
      expect(bcryptjs.compareSync('hunter2', body.Sign.hash)).toBe(true);
      expect(body.Open.plain).toBe('secret text');
      expect(body.Open.claims.payload).toEqual({ user: 'ann', iat: 1_700_000_000, exp: 1_700_003_600 });
      expect(body.Open.claims.verified).toBe(false);
    }
    expect((a!.body as any).Sign.sig).toBe((b!.body as any).Sign.sig);
  });

  it('a failing transform fails the action without leaking the secret', async () => {
    const [a, b] = await runBoth(`
interfaces:
  x:
    show_error_detail: true
    actions:
      - name: Bad
        input: { v: 1 }
        post_transforms:
          - encrypt_value: { key: box, data: x, secret_key: a|var::HMAC|, nonce: random }
`);
    expect(a).toEqual(b);
    expect(a!.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(a!.body)).toMatch(/secret_key/);
    expect(JSON.stringify(a!.body)).not.toContain(VARS.HMAC);
  });
});
