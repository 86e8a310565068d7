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
  up = await countingUpstream({ '/hang': () => new Promise(() => {}), '/status/*': (req, res) => json(res, Number(req.url!.split('/')[2]!.split('?')[0]), { code: Number(req.url!.split('/')[2]) }) });
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
  it('a skipped output: http action leaves the keyed body', async () => {
    const r = await run(`      - name: A\n        input: a\n      - name: Out\n        run_when_failed: [A]\n        input: out\n        output: http\n      - name: B\n        input: b\n`);
    expect(r.response.body).toEqual({ A: 'a', B: 'b' });
  });

  it('a handled failure shows its data unless hide_data_on_error or hide_errors', async () => {
    const r = await run(get('Shown', 404) + get('HiddenData', 409, '        depends_on: [Shown]\n        hide_data_on_error: true\n') + get('HiddenErrors', 410, '        depends_on: [Shown]\n        hide_errors: true\n')
      + `      - name: H\n        run_when_failed: [Shown, HiddenData, HiddenErrors]\n        input: handled\n`);
    expect(r.response).toEqual({ status: 200, headers: {}, body: { Shown: { code: 404 }, H: 'handled' } });
  });

  it('hide_data_on_success does not hide the data of a handled failure', async () => {
    const r = await run(get('A', 404, '        hide_data_on_success: true\n') + handle('H', 'A'));
    expect(r.response.body).toEqual({ A: { code: 404 }, H: 'handled' });
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
  it("headers: the interface's, then the failing action's response_on_error headers, names lower-cased, values as text", async () => {
    const r = await run(get('A', 404, `        response_on_error:\n          headers: { X-Reason: missing, X-Code: 7 }\n`), '    response:\n      headers: { X-Api: v1, X-Code: 1 }\n');
    expect(r.response.headers).toEqual({ 'x-api': 'v1', 'x-code': '7', 'x-reason': 'missing' });
  });

  it('templates.error shapes the error body; an action forced to fail by depends_on has null data when handled', async () => {
    const t = await run(get('A', 404), `    templates: { error: 'failed with a|A::status|' }\n`);
    expect(t.response.body).toBe('failed with 404');
    const handled = await run(`      - name: A\n        input: a\n      - name: B\n        run_when_failed: [A]\n        input: b\n      - name: D\n        depends_on: { actions: [B], http_code_on_error: 424 }\n        input: d\n      - name: H\n        run_when_failed: [D]\n        input: h\n`);
    expect(handled.response).toEqual({ status: 200, headers: {}, body: { A: 'a', D: null, H: 'h' } });
  });

  it("the failing action's response_on_error body replaces the error body", async () => {
    const r = await run(get('A', 404, `        response_on_error:\n          http_code: 409\n          body: 'no thing (a|A::status|)'\n`));
    expect(r.response).toEqual({ status: 409, headers: {}, body: 'no thing (404)' });
  });

  it("an earlier action's response_on_error and hide flags do not shape another action's error body", async () => {
    const r = await run(`      - name: First\n        input: ok\n        hide_errors: true\n        response_on_error: { body: first failed }\n${get('Second', 404)}`, '    show_error_detail: true\n');
    expect(r.response.body).toEqual({ error: { status: 502, message: 'action "Second" failed', action: 'Second', detail: expect.stringMatching(/^HTTP 404 from GET /), data: { code: 404 } } });
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
    // C is skipped (B's failure is unhandled): it did not run, so B is the last.
    expect((await run(get('A', 404) + handle('H', 'A') + get('B', 503) + `      - name: C\n        input: c\n`, strategy('last_action'))).response.status).toBe(503);
    // The last action that ran answered 200: no pick, the default for a status failure applies.
    expect((await run(two, strategy('last_action'))).response.status).toBe(502);
  });

  it('the strategies pick failed actions only; with no pick, http_code_fallback applies', async () => {
    const accepted = get('A', 404, '        http: { expect_status: [404] }\n') + get('B', 503);
    expect((await run(accepted, strategy('any_action'))).response.status).toBe(503);
    expect((await run(two, strategy('last_action') + '      http_code_fallback: 418\n')).response.status).toBe(418);
  });

  it('inherit may name an action nested in a lookup (it has no record of its own in the run)', async () => {
    const r = await run(`      - name: Ids\n        input: [{ id: 1 }]\n      - name: Each\n        lookup: a|Ids|\n        actions:\n          - name: Inner\n            input: a|body::id|\n${get('Missing', 404)}`, '    response:\n      http_code_inherit_error: [Inner, Missing]\n');
    expect(r.response.status).toBe(404);
  });

  it('inherit looks past a failed action without a status; inherit comes before http_code_on_error', async () => {
    const refusedThen404 = `      - name: Refused\n        url: a|var::CLOSED|/x\n      - name: Missing\n        depends_on: [Refused]\n        url: a|var::API|/status/404\n`;
    expect((await run(refusedThen404, '    response:\n      http_code_inherit_error: [Refused, Missing]\n      http_code_on_error: 503\n')).response.status).toBe(404);
    expect((await run(refusedThen404, '    response:\n      http_code_inherit_error: [Refused]\n      http_code_on_error: 503\n')).response.status).toBe(503);
  });

  it("a depends_on http_code_on_error answers only when that action is the run's failure", async () => {
    const base = `      - name: A\n        url: a|var::API|/status/404\n      - name: B\n        input: b\n      - name: Strict\n        depends_on: { actions: [B], http_code_on_error: 424 }\n        input: strict\n`;
    expect((await run(base)).response.status).toBe(424);
    const later = base + `      - name: After\n        depends_on: [Strict]\n        url: a|var::API|/status/410\n`;
    expect((await run(later)).response.status).toBe(502);
  });

  it('a status of exactly 400 is an error status for the strategies', async () => {
    for (const s of ['last_action', 'last_action_with_error', 'any_action']) {
      expect((await run(get('A', 400), strategy(s))).response.status).toBe(400);
    }
    // 399 is not: the default applies.
    expect((await run(get('A', 399), strategy('any_action'))).response.status).toBe(502);
  });

  it('a refused connection is 502, a timeout 504, a failed transform 500, bad params 400', async () => {
    const refused = await run(`      - name: A\n        url: a|var::CLOSED|/x\n`, '    show_error_detail: true\n');
    expect(refused.response.status).toBe(502);
    // No data key: a refused connection has none.
    expect(Object.keys((refused.response.body as { error: object }).error)).toEqual(['status', 'message', 'action', 'detail']);
    expect((await run(`      - name: A\n        url: a|var::API|/hang\n        http: { timeout: 100ms }\n`)).response.status).toBe(504);
    expect((await run(`      - name: A\n        input: { x: 1 }\n        post_transforms:\n          - math: { expressions: { y: "1" }, decimal_places: 21 }\n`)).response.status).toBe(500);
    const params = await run(`      - name: A\n        input: a|params::id|\n`, `    params:\n      id:\n        value: a|params::id|\n        validate: { is_not_empty: true }\n        error_message: id is required\n`);
    expect(params.response).toEqual({ status: 400, headers: {}, body: { error: { status: 400, message: 'id is required' } } });
  });

  it("an interface-level assert that fails answers 422 with the assert's message", async () => {
    const r = await run(`      - name: A\n        input: { n: 1 }\n`, `    assert:\n      tests:\n        - value: a|A->n|\n          is_equal_to: 2\n      error_message: n is not 2\n`);
    expect(r.response).toEqual({ status: 422, headers: {}, body: { error: { status: 422, message: 'n is not 2' } } });
  });
});
