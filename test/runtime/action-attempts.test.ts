// One action's attempts through the executor, on both paths: which failures are retried (a failed
// transform, a model call's status), the run's deadline and the client going away (during an
// attempt, during the wait), the action's timeout beside the run's cancellation, what the next
// attempt reads of the failed one, and what a record holds (an empty body, a failed action's assert,
// the assert hint's statuses).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { executeInterface } from '../../runtime/exec/run.ts';
import { RunCancel } from '../../runtime/run-cancel.ts';
import { systemClock, type Services } from '../../runtime/services.ts';
import { MemoryStore } from '../../runtime/store/memory.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { planOf, postRequest, testEnv } from '../support/plans.ts';

let up: Awaited<ReturnType<typeof countingUpstream>>;
/** Set by a test: what the upstream does to the run's client before answering. */
let disconnect: (() => void) | undefined;
beforeAll(async () => {
  up = await countingUpstream({
    '/flaky/*': (_q, res, n) => json(res, n === 1 ? 503 : 200, { n }),
    '/always/*': (_q, res, n) => json(res, 503, { n }),
    '/missing/*': (_q, res, n) => json(res, 404, { n }),
    '/empty': (_q, res) => { res.writeHead(204); res.end(); },
    '/hang/*': () => new Promise(() => {}),
    '/leave-hanging/*': () => { disconnect?.(); return new Promise(() => {}); },
    '/leave-503/*': (_q, res, n) => { disconnect?.(); json(res, 503, { n }); },
    // A model endpoint that refuses every request (HTTP 400: not a retryable status).
    '/model/*': (_q, res) => json(res, 400, { error: 'bad request' }),
  });
});
afterAll(async () => { await up.close(); await closeHttpPools(); });

const MODES = ['compiled', 'interpreted'] as const;
const t0 = Date.parse('2026-03-01T10:00:00.000Z');
let seq = 0;

/** Runs the one interface of `actions` (YAML list items) with a controllable clock and services. */
async function run(mode: 'compiled' | 'interpreted', actions: string, o: { services?: Partial<Services>; body?: unknown } = {}) {
  const yaml = `interfaces:\n  x:\n    show_error_detail: true\n    actions:\n${actions.replace(/^/gm, '      ')}\n`;
  const plan = await planOf(`attempts${++seq}.yaml`, mode, yaml);
  const env = testEnv({ API: up.url });
  const slept: number[] = [];
  const clock = { now: () => t0, sleep: async (ms: number) => { slept.push(ms); } };
  const services: Services = { clock, ...o.services };
  const result = executeInterface(plan, plan.interfaces[0]!, postRequest('/x', o.body ?? null), { trigger: 'test', env, services });
  return { result, slept };
}

describe('which failures are retried', () => {
  it.each(MODES)('a non-HTTP action is attempted again whatever failed, a transform included (%s)', async (mode) => {
    const { result } = await run(mode, `- name: A\n  input: { v: 1 }\n  post_transforms: [{ extract_with_jq: 'error("no good")' }]\n  retry: { attempts: 3, delay: 1, jitter: none }`);
    const r = await result;
    expect(r.state.steps.A).toMatchObject({ outcome: 'failed', attempts: 3 });
    expect(r.state.steps.A!.error).toContain('no good');
  });
  it.each(MODES)('a model call follows the HTTP rules: a 400 from the model is not attempted again (%s)', async (mode) => {
    const path = `/model/${mode}-${++seq}`;
    const { result } = await run(mode, `- name: A\n  agent:\n    url: a|var::API|${path}\n    model: m\n    input: hello\n  retry: { attempts: 3, delay: 1, jitter: none }`);
    const r = await result;
    expect(r.state.steps.A).toMatchObject({ outcome: 'failed', attempts: 1 });
    expect(up.count(path)).toBe(1);
  });
});

describe('the run\'s deadline', () => {
  it.each(MODES)('a wait that ends exactly at the deadline is taken (%s)', async (mode) => {
    const path = `/flaky/${mode}-${++seq}`;
    const { result, slept } = await run(mode, `- name: A\n  url: a|var::API|${path}\n  retry: { attempts: 2, delay: 30000, jitter: none }`, { services: { store: new MemoryStore(), runDeadlineMs: 30_000, maxDelayMs: 60_000 } });
    const r = await result;
    expect(r.state.steps.A).toMatchObject({ outcome: 'succeeded', attempts: 2 });
    expect(slept).toEqual([30_000]);
    expect(up.count(path)).toBe(2);
  });
  it.each(MODES)('a polling assert stopped by it fails the action, saying why (%s)', async (mode) => {
    const { result, slept } = await run(mode, `- name: A\n  input: { done: false }\n  retry: { attempts: 3, delay: 30001, jitter: none }\n  assert:\n    tests:\n      - value: a|A->done|\n        is_equal_to: true`, { services: { runDeadlineMs: 30_000, maxDelayMs: 60_000 } });
    const r = await result;
    expect(slept).toEqual([]);
    expect(r.state.steps.A).toMatchObject({ attempts: 1, error: `failed; retries stopped: the run's deadline (2026-03-01T10:00:30.000Z) comes before the next attempt` });
    expect(r.response.status).toBe(422);
  });
});

describe('the client going away', () => {
  it.each(MODES)('during an attempt: no further attempt, and the failure says why (%s)', async (mode) => {
    const path = `/leave-503/${mode}-${++seq}`;
    const cancel = new RunCancel();
    disconnect = () => cancel.abort(new Error('the client disconnected'));
    const { result, slept } = await run(mode, `- name: A\n  url: a|var::API|${path}\n  retry: { attempts: 3, delay: 1, jitter: none }`, { services: { cancel } });
    const r = await result;
    disconnect = undefined;
    expect(slept).toEqual([]);
    expect(up.count(path)).toBe(1);
    expect(r.state.steps.A).toMatchObject({ outcome: 'failed', attempts: 1, error: `the client disconnected (GET ${up.url}${path}); retries stopped: the client disconnected` });
  });
  it.each(MODES)('during the wait between attempts: the wait ends and no attempt follows (%s)', async (mode) => {
    const path = `/always/${mode}-${++seq}`;
    const cancel = new RunCancel();
    // The wait is where the client leaves: the clock's sleep ends as an aborted sleep does.
    const clock = { now: () => t0, sleep: async (_ms: number, signal?: AbortSignal) => { cancel.abort(new Error('the client disconnected')); throw signal?.reason; } };
    const { result } = await run(mode, `- name: A\n  url: a|var::API|${path}\n  retry: { attempts: 3, delay: 1, jitter: none }`, { services: { cancel, clock } });
    const r = await result;
    expect(up.count(path)).toBe(1);
    expect(r.state.steps.A).toMatchObject({ outcome: 'failed', attempts: 1, error: `HTTP 503 from GET ${up.url}${path} (expected 2xx or 304)` });
  });
});

describe('an action\'s timeout beside the run\'s cancellation', () => {
  it.each(MODES)('the timeout still ends the action when the client stays (%s)', async (mode) => {
    const { result } = await run(mode, `- name: A\n  url: a|var::API|/hang/${mode}-${++seq}\n  timeout: 200ms`, { services: { cancel: new RunCancel(), clock: systemClock } });
    const r = await result;
    expect(r.state.steps.A!.outcome).toBe('failed');
    expect(r.response.status).toBe(504);
  });
  it.each(MODES)('the client leaving ends the action before its timeout (%s)', async (mode) => {
    const cancel = new RunCancel();
    disconnect = () => cancel.abort(new Error('the client disconnected'));
    const path = `/leave-hanging/${mode}-${++seq}`;
    const { result } = await run(mode, `- name: A\n  url: a|var::API|${path}\n  timeout: 5s`, { services: { cancel, clock: systemClock } });
    const r = await result;
    disconnect = undefined;
    expect(r.state.steps.A).toMatchObject({ outcome: 'failed', error: `the client disconnected (GET ${up.url}${path})` });
  });
});

describe('an action that waits on the run\'s own signal (no timeout of its own)', () => {
  it.each(MODES)('a delay ends when the client leaves, failing the action (%s)', async (mode) => {
    const cancel = new RunCancel();
    // The client leaves during the sleep, which then ends as an aborted sleep does.
    const clock = { now: () => t0, sleep: async (_ms: number, signal?: AbortSignal) => { cancel.abort(new Error('the client disconnected')); if (signal?.aborted) throw signal.reason; } };
    const { result } = await run(mode, `- name: Wait\n  delay: 1s`, { services: { cancel, clock } });
    const r = await result;
    expect(r.state.steps.Wait).toMatchObject({ outcome: 'failed', attempts: 1, error: 'the client disconnected' });
  });
});

describe('what the next attempt reads', () => {
  it.each(MODES)('the failed attempt\'s record, with or without a retry_log (%s)', async (mode) => {
    const path = `/always/${mode}-${++seq}`;
    const { result } = await run(mode, `- name: A\n  url: a|var::API|${path}?prev=a|A::status|\n  retry: { attempts: 3, delay: 1, jitter: none }`);
    await result;
    expect(up.hits.filter((h) => h.path.startsWith(path)).map((h) => h.path.slice(path.length))).toEqual(['?prev=', '?prev=503', '?prev=503']);
  });
});

describe('what a record holds', () => {
  it.each(MODES)('a response without a body gives the action null data (%s)', async (mode) => {
    const { result } = await run(mode, `- name: A\n  url: a|var::API|/empty`);
    const r = await result;
    expect(r.response).toEqual({ status: 200, headers: {}, body: { A: null } });
  });
  it.each(MODES)('a failed action\'s assert is not run, so it is not polled either (%s)', async (mode) => {
    const path = `/missing/${mode}-${++seq}`;
    const { result } = await run(mode, `- name: A\n  url: a|var::API|${path}\n  retry: { attempts: 3, delay: 1, jitter: none }\n  assert:\n    tests:\n      - value: a|A->n|\n        is_equal_to: 5`);
    const r = await result;
    expect(r.state.steps.A).toMatchObject({ outcome: 'failed', attempts: 1 });
    expect(r.state.steps.A).not.toHaveProperty('assert');
    expect(r.response.status).toBe(502);
    expect(up.count(path)).toBe(1);
  });
  it.each(MODES)('the assert hint lists every status the assert expects and expect_status refuses (%s)', async (mode) => {
    const { result } = await run(mode, `- name: A\n  url: a|var::API|/missing/${mode}-${++seq}\n  assert:\n    tests:\n      - value: a|A::status|\n        is_one_of: [410, 404]`);
    const r = await result;
    expect(r.state.steps.A!.error).toContain('the assert expects status 404, which expect_status does not accept: add "expect_status: [404, 410]"');
  });
  it.each(MODES)('a refusal is no status: an assert expecting the refusal\'s status gets no hint (%s)', async (mode) => {
    const { result } = await run(mode, `- name: A\n  url: a|body::base|/x\n  assert:\n    tests:\n      - value: a|A::status|\n        is_equal_to: 400`, { body: { base: 'not-a-url' } });
    const r = await result;
    expect(r.state.steps.A).toMatchObject({ outcome: 'failed', error: 'a|body::base| starts the URL but its value is not an absolute URL: refused' });
    expect(r.response.status).toBe(400);
  });
});
