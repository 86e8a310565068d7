// Executor rules, run through both paths on configs written inline, against a real local upstream.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { runBoth as runBoth2, type InlineRequest } from '../support/run-both.ts';
import { startUpstream, type Upstream } from '../support/upstream.ts';

let up: Upstream;
beforeAll(async () => { up = await startUpstream(); });
afterAll(async () => { await up.close(); await closeHttpPools(); });

const runBoth = (yaml: string, iface: string, req: InlineRequest = {}) => runBoth2(yaml, iface, req, { API: up.url });

describe('action order and conditions', () => {
  it('skips later actions after an unhandled failure, runs run_when_failed branches', async () => {
    const r = await runBoth(`
interfaces:
  x:
    actions:
      - name: A
        url: a|var::API|/always-503
      - name: B
        input: a|body|
      - name: Fallback
        run_when_failed: [A]
        input: { recovered: true }
      - name: After
        input: done
`, 'x');
    expect(r.state.steps.A!.outcome).toBe('failed');
    expect(r.state.steps.A!.status).toBe(503);
    expect(r.state.steps.B!.outcome).toBe('skipped');
    expect(r.state.steps.Fallback!.outcome).toBe('succeeded');
    expect(r.state.steps.After!.outcome).toBe('succeeded');
    expect(r.response.status).toBe(200);
    expect(r.response.body).toEqual({ A: { error: 'unavailable' }, Fallback: { recovered: true }, After: 'done' });
  });

  it('run_when_succeeded with at_least; depends_on runs after a failure, and a run_when_failed beside it handles it', async () => {
    const r = await runBoth(`
interfaces:
  x:
    actions:
      - name: A
        input: { n: 1 }
      - name: B
        url: a|var::API|/orders/8
        run_when_succeeded: [A]
      - name: C
        run_when_succeeded: { actions: [A, B], at_least: 1 }
        input: c
      - name: D
        run_when_failed: [B]
        depends_on: { actions: [A, B], http_code_on_error: 424 }
        input: d
`, 'x');
    expect(r.state.steps.C!.outcome).toBe('succeeded');
    expect(r.state.steps.D!.outcome).toBe('succeeded');
    expect(r.response.status).toBe(200);
    expect(r.response.body).toEqual({ A: { n: 1 }, B: { error: 'not found' }, C: 'c', D: 'd' });
  });

  it('input fallbacks, conditional input and run_on_assertion', async () => {
    const r = await runBoth(`
interfaces:
  x:
    actions:
      - name: A
        input: a|body::missing|
        input_fallbacks: [a|body::also_missing|, a|body::name|]
      - name: B
        conditional_input:
          - input: a|body::n|
            tests: [{ is_greater_than: 10 }]
          - input: small
            tests: []
      - name: C
        run_on_assertion:
          tests:
            - value: a|body::n|
              is_less_than: 3
        input: ran
`, 'x', { body: { name: 'Ada', n: 5 } });
    expect(r.response.body).toEqual({ A: 'Ada', B: 'small' });
    expect(r.state.steps.C!.outcome).toBe('skipped');
  });
});

describe('asserts never decide the outcome, but shape the response', () => {
  it('a failed assert keeps the action succeeded and answers 422 with error_message', async () => {
    const r = await runBoth(`
interfaces:
  x:
    actions:
      - name: Order
        url: a|var::API|/orders/7
        assert:
          tests:
            - value: a|Order->status|
              is_equal_to: shipped
          error_message: "order a|Order::id| is a|Order->status| (HTTP a|Order::status|)"
      - name: Next
        run_when_succeeded: [Order]
        input: ok
`, 'x');
    expect(r.state.steps.Order!.outcome).toBe('succeeded');
    expect(r.state.steps.Order!.assert).toMatchObject({ ok: false });
    expect(r.state.steps.Next!.outcome).toBe('succeeded');
    expect(r.response.status).toBe(422);
    expect(r.response.body).toEqual({ error: { status: 422, message: 'order 7 is paid (HTTP 200)', action: 'Order' } });
  });
});

describe('error status rules', () => {
  const cfg = (response: string) => `
interfaces:
  x:
    actions:
      - name: Missing
        url: a|var::API|/orders/8
    response:
${response}`;

  it('defaults to 502 for an upstream status failure', async () => {
    const r = await runBoth(cfg('      headers: { x-a: b }'), 'x');
    expect(r.response.status).toBe(502);
    expect(r.response.body).toEqual({ error: { status: 502, message: 'action "Missing" failed', action: 'Missing' } });
    expect(r.response.headers).toEqual({ 'x-a': 'b' });
  });
  it('http_code_on_error', async () => {
    expect((await runBoth(cfg('      http_code_on_error: 503'), 'x')).response.status).toBe(503);
  });
  it('http_code_inherit_error', async () => {
    expect((await runBoth(cfg('      http_code_inherit_error: [Missing]'), 'x')).response.status).toBe(404);
  });
  it('fallback strategies', async () => {
    expect((await runBoth(cfg('      http_code_fallback_strategy: any_action'), 'x')).response.status).toBe(404);
    expect((await runBoth(cfg('      http_code_fallback: 418'), 'x')).response.status).toBe(418);
  });
  it('show_error_detail adds the action error and its data; custom_body replaces the body', async () => {
    const detail = await runBoth(`
interfaces:
  x:
    show_error_detail: true
    actions:
      - name: Missing
        url: a|var::API|/orders/8?token=secret
`, 'x');
    const err = (detail.response.body as { error: Record<string, unknown> }).error;
    expect(err.detail).toMatch(/^HTTP 404 from GET http:\/\/127\.0\.0\.1:\d+\/orders\/8 /);
    expect(String(err.detail)).not.toContain('secret');
    expect(err.data).toEqual({ error: 'not found' });
    const custom = await runBoth(cfg("      custom_body: 'no order a|Missing::status|'"), 'x');
    expect(custom.response.body).toBe('no order 404');
  });
});

describe('success responses', () => {
  it('output: http returns that action only; hide flags shape the keyed body', async () => {
    const r = await runBoth(`
interfaces:
  x:
    actions:
      - name: A
        input: { a: 1 }
        hide_action: true
      - name: B
        input: []
        hide_data_on_empty: true
      - name: C
        input: c
        hide_data_on_success: true
      - name: D
        input: d
`, 'x');
    expect(r.response.body).toEqual({ D: 'd' });
    const o = await runBoth(`
interfaces:
  x:
    actions:
      - name: A
        input: a
        output: http
      - name: B
        input: { b: 1 }
`, 'x');
    expect(o.response.body).toBe('a');
  });
  it('response_on_success sets status, headers and body', async () => {
    const r = await runBoth(`
interfaces:
  x:
    actions:
      - name: Create
        input: a|body|
        response_on_success:
          http_code: 201
          headers: { location: /things/a|body::id| }
          body: '{"created":a|body::id|}'
`, 'x', { body: { id: 9 } });
    expect(r.response).toEqual({ status: 201, headers: { location: '/things/9' }, body: '{"created":9}' });
  });
  it('the last action that succeeded with a response_on_success decides; skipped ones and later plain ones do not', async () => {
    const r = await runBoth(`
interfaces:
  x:
    actions:
      - name: First
        input: a
        response_on_success: { http_code: 201, body: first }
      - name: Second
        input: b
        response_on_success: { http_code: 202, body: second }
      - name: Skipped
        run_when_failed: [First]
        input: c
        response_on_success: { http_code: 203, body: skipped }
      - name: Plain
        input: d
`, 'x');
    expect(r.response).toEqual({ status: 202, headers: {}, body: 'second' });
  });
});

describe('what ::body reads after post_transforms', () => {
  it('the upstream body for an HTTP action, the transformed data for any other', async () => {
    const r = await runBoth(`
interfaces:
  x:
    actions:
      - name: Call
        http: { url: a|var::API|/echo, method: POST, body: { n: 1 } }
        post_transforms:
          - extract_with_jq: ".body"
      - name: Made
        input: { n: 2 }
        post_transforms:
          - extract_with_jq: ".n"
      - name: Reads
        input: { call: a|Call::body->method|, callData: a|Call|, made: a|Made::body|, madeData: a|Made| }
`, 'x');
    expect(r.response.status).toBe(200);
    expect((r.response.body as { Reads: unknown }).Reads).toEqual({ call: 'POST', callData: '{"n":1}', made: 2, madeData: 2 });
  });
});

describe('how a failed run says why', () => {
  it('a refused request value names the action and the reason; an interface assert without a message says so', async () => {
    const refused = await runBoth(`
interfaces:
  x:
    actions:
      - name: Get
        url: a|var::API|/items/a|body::id|
`, 'x', { body: { id: '..' } });
    expect(refused.response).toEqual({ status: 400, headers: {}, body: { error: { status: 400, message: 'action "Get" refused: a|body::id| is "..", which would move the URL path: refused', action: 'Get' } } });
    const asserted = await runBoth(`
interfaces:
  x:
    assert:
      tests: [{ value: a|A|, is_equal_to: b }]
    actions:
      - name: A
        input: a
`, 'x');
    expect(asserted.response).toEqual({ status: 422, headers: {}, body: { error: { status: 422, message: 'assertion failed' } } });
  });
});

describe('assert verdicts as the response and the run record show them', () => {
  it('every test is evaluated: each failure is listed in the detail, the success_message is kept on success', async () => {
    const yaml = `
interfaces:
  x:
    show_error_detail: true
    actions:
      - name: A
        input: a|body|
        assert:
          tests:
            - value: a|A->n|
              is_greater_than: 1
            - value: a|A->s|
              is_equal_to: ok
          success_message: "n is a|A->n|"
`;
    const bad = await runBoth(yaml, 'x', { body: { n: 1, s: 'no' } });
    expect(bad.response.status).toBe(422);
    expect(bad.response.body).toEqual({ error: { status: 422, message: 'assertion failed in action "A"', action: 'A', detail: 'value a|A->n|, is_greater_than 1: expected 1 to be greater than 1; value a|A->s|, is_equal_to ok: expected "no" to equal "ok"', data: { n: 1, s: 'no' } } });
    expect(bad.state.steps.A!.assert).toEqual({ ok: false, failures: expect.any(Array) });
    const good = await runBoth(yaml, 'x', { body: { n: 2, s: 'ok' } });
    expect(good.response).toEqual({ status: 200, headers: {}, body: { A: { n: 2, s: 'ok' } } });
    expect(good.state.steps.A!.assert).toEqual({ ok: true, failures: [], message: 'n is 2' });
  });

  it('a test that cannot be evaluated (a jq error) is a failed test with the reason, not a crash', async () => {
    const r = await runBoth(`
interfaces:
  x:
    show_error_detail: true
    actions:
      - name: A
        input: { n: 1 }
        assert:
          tests:
            - jq: 'error("no such field")'
              is_not_null: true
          error_message: A is not usable
`, 'x');
    expect(r.response.status).toBe(422);
    expect(r.response.body).toMatchObject({ error: { status: 422, message: 'A is not usable', action: 'A' } });
    expect((r.response.body as { error: { detail: string } }).error.detail).toBe('no such field');
  });
});

describe('input resolution', () => {
  it('input_fallbacks skip null and missing values but keep 0, false and empty text', async () => {
    const yaml = (first: string) => `
interfaces:
  x:
    actions:
      - name: A
        input: a|body::${first}|
        input_fallbacks: [a|body::none|, fallback]
`;
    const body = { nul: null, zero: 0, no: false, empty: '' };
    expect((await runBoth(yaml('nul'), 'x', { body })).response.body).toEqual({ A: 'fallback' });
    expect((await runBoth(yaml('zero'), 'x', { body })).response.body).toEqual({ A: 0 });
    expect((await runBoth(yaml('no'), 'x', { body })).response.body).toEqual({ A: false });
    expect((await runBoth(yaml('empty'), 'x', { body })).response.body).toEqual({ A: '' });
  });

  it('conditional_input takes the first entry whose tests all hold; none holding gives null', async () => {
    const yaml = `
interfaces:
  x:
    actions:
      - name: A
        conditional_input:
          - input: both
            tests: [{ value: a|body::n|, is_greater_than: 1 }, { value: a|body::n|, is_less_than: 5 }]
          - input: big
            tests: [{ value: a|body::n|, is_greater_than: 1 }]
`;
    expect((await runBoth(yaml, 'x', { body: { n: 3 } })).response.body).toEqual({ A: 'both' });
    expect((await runBoth(yaml, 'x', { body: { n: 9 } })).response.body).toEqual({ A: 'big' });
    expect((await runBoth(yaml, 'x', { body: { n: 0 } })).response.body).toEqual({ A: null });
  });

  it('conditional_input as plain strings takes the first that resolves (issue 30: the first was taken even when null)', async () => {
    const yaml = `
interfaces:
  x:
    actions:
      - name: A
        conditional_input: [a|body::x|, a|body::y|, fallback]
`;
    expect((await runBoth(yaml, 'x', { body: { y: 'Y' } })).response.body).toEqual({ A: 'Y' });
    expect((await runBoth(yaml, 'x', { body: { x: 0, y: 'Y' } })).response.body).toEqual({ A: 0 });
    expect((await runBoth(yaml, 'x', { body: { x: null } })).response.body).toEqual({ A: 'fallback' });
  });
});
