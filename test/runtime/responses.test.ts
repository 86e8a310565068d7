// How a finished run becomes a response (runtime/exec/response.ts), request to response on both
// paths: hide flags in success and error bodies, per-action response_on_error, the error status
// order (inherit, strategies, defaults for asserts and transport failures).
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { runBoth } from '../support/run-both.ts';

let up: Awaited<ReturnType<typeof countingUpstream>>;
let closed: string;
beforeAll(async () => {
  up = await countingUpstream({ '/status/*': (req, res) => json(res, Number(req.url!.split('/')[2]!.split('?')[0]), { code: Number(req.url!.split('/')[2]) }) });
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  closed = `http://127.0.0.1:${(srv.address() as { port: number }).port}`;
  await new Promise((r) => srv.close(r));
});
afterAll(async () => { await up.close(); await closeHttpPools(); });

const run = (actions: string, iface = '') => runBoth(`
interfaces:
  x:
${iface}    actions:
${actions}`, 'x', {}, { API: up.url, CLOSED: closed });
const get = (name: string, status: number, extra = '') => `      - name: ${name}
        url: a|var::API|/status/${status}
${extra}`;
const handle = (name: string, failed: string) => `      - name: ${name}
        run_when_failed: [${failed}]
        input: handled
`;

describe('success bodies', () => {
  it('a handled failure shows its data unless hide_data_on_error or hide_errors', async () => {
    const r = await run(get('Shown', 404) + get('HiddenData', 409, '        depends_on: [Shown]\n        hide_data_on_error: true\n') + get('HiddenErrors', 410, '        depends_on: [Shown]\n        hide_errors: true\n')
      + `      - name: H\n        run_when_failed: [Shown, HiddenData, HiddenErrors]\n        input: handled\n`);
    expect(r.response).toEqual({ status: 200, headers: {}, body: { Shown: { code: 404 }, H: 'handled' } });
  });

  it('hide_data_on_error does not hide success data, hide_data_on_empty only hides empty data', async () => {
    const r = await run(`      - name: A
        input: { a: 1 }
        hide_data_on_error: true
        hide_errors: true
      - name: Full
        input: [1]
        hide_data_on_empty: true
      - name: Empty
        input: []
        hide_data_on_empty: true
      - name: EmptyShown
        input: []
`);
    expect(r.response.body).toEqual({ A: { a: 1 }, Full: [1], EmptyShown: [] });
  });
});

describe('error bodies', () => {
  it("the failing action's response_on_error body replaces the error body", async () => {
    const r = await run(get('A', 404, `        response_on_error:\n          http_code: 409\n          body: 'no thing (a|A::status|)'\n`));
    expect(r.response).toEqual({ status: 409, headers: {}, body: 'no thing (404)' });
  });

  it("response_on_error.http_code is read from the failing action, not an earlier one", async () => {
    const r = await run(`      - name: First
        input: ok
        response_on_error: { http_code: 418 }
${get('Second', 404, '        response_on_error: { http_code: 409 }\n')}`);
    expect(r.response.status).toBe(409);
  });

  it('with show_error_detail, hide_errors hides detail and data, hide_data_on_error only the data', async () => {
    const detail = '    show_error_detail: true\n';
    const plain = await run(get('A', 404), detail);
    expect(plain.response.body).toEqual({ error: { status: 502, message: 'action "A" failed', action: 'A', detail: expect.stringMatching(/^HTTP 404 from GET /), data: { code: 404 } } });
    const noErrors = await run(get('A', 404, '        hide_errors: true\n'), detail);
    expect(noErrors.response.body).toEqual({ error: { status: 502, message: 'action "A" failed', action: 'A' } });
    const noData = await run(get('A', 404, '        hide_data_on_error: true\n'), detail);
    expect(noData.response.body).toEqual({ error: { status: 502, message: 'action "A" failed', action: 'A', detail: expect.stringMatching(/^HTTP 404 from GET /) } });
  });
});

describe('error status', () => {
  it('http_code_inherit_error skips a named action that succeeded', async () => {
    const r = await run(get('Ok', 200) + get('Missing', 404), '    response:\n      http_code_inherit_error: [Ok, Missing]\n');
    expect(r.response.status).toBe(404);
  });

  // A failed 404 handled, then a 503 left unhandled, then a 200 that ran anyway (depends_on).
  const two = get('A', 404) + handle('H', 'A') + get('B', 503) + `      - name: C\n        depends_on: [B]\n        url: a|var::API|/status/200\n`;
  const strategy = (s: string) => `    response:\n      http_code_fallback_strategy: ${s}\n`;

  it('any_action picks the first failed status, last_action_with_error the last', async () => {
    expect((await run(two, strategy('any_action'))).response.status).toBe(404);
    expect((await run(two, strategy('last_action_with_error'))).response.status).toBe(503);
  });

  it('last_action uses the last action that ran, only when it is an error status', async () => {
    expect((await run(get('A', 404) + handle('H', 'A') + get('B', 503), strategy('last_action'))).response.status).toBe(503);
    // The last action that ran answered 200: no pick, the default for a status failure applies.
    expect((await run(two, strategy('last_action'))).response.status).toBe(502);
  });

  it('a status of exactly 400 is an error status for the strategies', async () => {
    for (const s of ['last_action', 'last_action_with_error', 'any_action']) {
      expect((await run(get('A', 400), strategy(s))).response.status).toBe(400);
    }
    // 399 is not: the default applies.
    expect((await run(get('A', 399), strategy('any_action'))).response.status).toBe(502);
  });

  it('a refused connection is 502 (not the 504 of a timeout)', async () => {
    const refused = await run(`      - name: A\n        url: a|var::CLOSED|/x\n`);
    expect(refused.response.status).toBe(502);
  });

  it("an interface-level assert that fails answers 422 with the assert's message", async () => {
    const r = await run(`      - name: A\n        input: { n: 1 }\n`, `    assert:\n      tests:\n        - value: a|A->n|\n          is_equal_to: 2\n      error_message: n is not 2\n`);
    expect(r.response).toEqual({ status: 422, headers: {}, body: { error: { status: 422, message: 'n is not 2' } } });
  });
});
