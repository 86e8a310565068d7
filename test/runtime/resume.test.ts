// A run parked and continued in process, as the resumer does it (the store's claim, then resumeRun),
// on both paths: a delay, a callback and its timeout, a retry wait, a node taking a run over from
// its last checkpoint (same idempotency key), a tick's run that never started, and runs that cannot
// be continued. The multi-process and Postgres cases: test/durable/.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { continueRun } from '../../runtime/durable/resumer.ts';
import { executeInterface, newRunState, resumeRun, type RunOptions } from '../../runtime/exec/run.ts';
import { runHooks } from '../../runtime/server/hooks.ts';
import type { RunState } from '../../runtime/run-state.ts';
import { MemoryStore } from '../../runtime/store/memory.ts';
import { capturedLog } from '../ops/helpers.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { planOf, postRequest, testEnv } from '../support/plans.ts';

let up: Awaited<ReturnType<typeof countingUpstream>>;
beforeAll(async () => {
  up = await countingUpstream({
    '/flaky/*': (_q, res, n) => json(res, n === 1 ? 503 : 200, { n }), // fails the first call to each path
    '/echo': (_q, res, n) => json(res, 200, { n }),
  });
});
afterAll(async () => { await up.close(); await closeHttpPools(); });

const CONFIG = `
interfaces:
  later:
    params:
      lang: { default_value: en }
    actions:
      - name: First
        input: a|body::id|
      - name: Wait
        delay: 10s
      - name: After
        input: { first: a|First|, waited: a|Wait|, lang: a|params::lang| }
  approval:
    actions:
      - name: Token
        input: a|uuid|
        hide_action: true
      - name: Ask
        wait_for_callback: { token: a|Token|, timeout: 1h }
      - name: Result
        input: { approved: a|Ask::approved| }
      - name: TimedOut
        run_when_failed: [Ask]
        input: timed out
  polling:
    actions:
      - name: Flaky
        url: a|var::API|/flaky/a|body::k|
        retry: { attempts: 3, delay: 60000, jitter: none }
        pre_log: [{ msg: "polling", level: info }]
        success_log: [{ msg: "polled a|Flaky::status|", level: info }]
  held:
    actions:
      - name: First
        input: a|body::id|
      - name: Call
        url: a|var::API|/echo
        http: { idempotency: {} }
`;
const t0 = Date.parse('2026-03-01T10:00:00.250Z');
const MODES = ['compiled', 'interpreted'] as const;

async function setup(mode: 'compiled' | 'interpreted') {
  const plan = await planOf('resume.yaml', mode, CONFIG);
  const clock = { t: t0, now: () => clock.t, sleep: async (_ms: number) => {} };
  const store = Object.assign(new MemoryStore(), { durable: true });
  // Unguessable callback tokens (a counter's uuids are refused as a token).
  const env = { ...testEnv({ API: up.url }), uuid: () => randomUUID() };
  const { log, lines } = capturedLog(env);
  const services = { clock, store, maxDelayMs: 1000, log };
  const iface = (name: string) => plan.interfaces.find((i) => i.name === name)!;
  const start = (name: string, body: unknown = null, o: Partial<RunOptions> = {}) => executeInterface(plan, iface(name), postRequest(`/${name}`, body), { trigger: 'test', env, services, ...o });
  const resume = (state: RunState, delivery: Parameters<typeof resumeRun>[2]) => resumeRun(plan, state, delivery, { env, services });
  /** The parked run as the resumer claims it once due. */
  const due = async (at: number) => { clock.t = at; const [s] = await store.claimDue(new Date(at), 10, 'node'); return s!; };
  return { plan, clock, store, env, services, iface, start, resume, due, lines };
}

describe('a run parked by a delay', () => {
  it.each(MODES)('answers 202 with its id, action, reason and resume time; resumed when due, the delay completes with null (%s)', async (mode) => {
    const { start, store, due, resume } = await setup(mode);
    const first = await start('later', { id: 7 });
    const id = first.state.id;
    expect(first.response).toEqual({ status: 202, headers: {}, body: { run_id: id, status: 'suspended', action: 'Wait', reason: 'delay', resume_at: '2026-03-01T10:00:10.250Z' } });
    expect(await store.loadRun(id)).toMatchObject({
      status: 'suspended', cursor: 1, startedAt: '2026-03-01T10:00:00.250Z', deadline: '2026-03-02T10:00:00.250Z',
      wake: { reason: 'delay', action: 'Wait', at: '2026-03-01T10:00:10.250Z' },
    });
    const state = await due(t0 + 10_000);
    const r = await resume(state, { kind: 'wake' });
    // The resumed run sees the params as resolved when it began (the default included).
    expect(r.response).toMatchObject({ status: 200, body: { First: 7, Wait: null, After: { first: 7, waited: null, lang: 'en' } } });
    expect(r.state).toMatchObject({ status: 'succeeded', cursor: 3, startedAt: '2026-03-01T10:00:00.250Z', wake: undefined });
    expect(r.state.steps.Wait).toEqual({ outcome: 'succeeded', attempts: 1, data: null });
  });

  it.each(MODES)('continued by the resumer, keeps the whole record it wrote; the after-run hooks run and write no shorter one over it (%s)', async (mode) => {
    const { plan, start, store, due, env, services } = await setup(mode);
    const first = await start('later', { id: 7 });
    const hooks = runHooks({ env, services, warn: () => {} });
    let after = 0;
    const done = await continueRun({ plans: [plan], store, env, services, node: 'node', hooks: { afterRun: (p, i, r) => { after++; hooks.afterRun(p, i, r); } } }, await due(t0 + 10_000), { kind: 'wake' });
    expect(done.status).toBe('succeeded');
    expect(after).toBe(1);
    const stored = (await store.loadRun(first.state.id))!;
    expect(stored.response).toMatchObject({ status: 200, body: { First: 7, After: { first: 7, waited: null, lang: 'en' } } });
    expect(Object.keys(stored.steps)).toEqual(['First', 'Wait', 'After']);
    expect(stored.request.body).toEqual({ id: 7 });
    expect(stored.deadline).toBe('2026-03-02T10:00:00.250Z');
  });
});

describe('a run waiting for a callback', () => {
  it.each(MODES)('the posted body becomes the action\'s data (%s)', async (mode) => {
    const { start, store, resume } = await setup(mode);
    const first = await start('approval');
    expect(first.response).toEqual({ status: 202, headers: {}, body: { run_id: first.state.id, status: 'suspended', action: 'Ask', reason: 'callback', resume_at: '2026-03-01T11:00:00.250Z' } });
    // The run's record never holds the token (issue 29: it is the wait's only credential); the
    // config made it in an earlier action, as a real config does to send it out.
    expect(first.state.wake!.token).toBe('[token]');
    const token = first.state.steps.Token!.data as string;
    expect(token).toMatch(/^[0-9a-f-]{36}$/);
    const claim = await store.claimToken(token, new Date(t0 + 1000), 'node');
    expect(claim.kind).toBe('claimed');
    const r = await resume((claim as { state: RunState }).state, { kind: 'callback', body: { approved: true } });
    expect(r.response.status).toBe(200);
    expect(r.response.body).toMatchObject({ Ask: { approved: true }, Result: { approved: true } });
    expect(r.state.steps.TimedOut!.outcome).toBe('skipped');
  });
  it.each(MODES)('a callback without a body completes it with null (%s)', async (mode) => {
    const { start, store, resume } = await setup(mode);
    const first = await start('approval');
    const claim = await store.claimToken(first.state.steps.Token!.data as string, new Date(t0), 'node') as { state: RunState };
    const r = await resume(claim.state, { kind: 'callback', body: undefined });
    expect(r.response).toMatchObject({ status: 200, body: { Ask: null, Result: { approved: null } } });
  });
  it.each(MODES)('when the wait times out the action fails, and what handles its failure runs (%s)', async (mode) => {
    const { start, due, resume } = await setup(mode);
    await start('approval');
    const r = await resume(await due(t0 + 3_600_000), { kind: 'timeout' });
    expect(r.state.steps.Ask).toEqual({ outcome: 'failed', attempts: 1, data: null, error: `no callback arrived before the wait's timeout` });
    expect(r.response).toMatchObject({ status: 200, body: { TimedOut: 'timed out' } });
    expect(r.state.steps.Result!.outcome).toBe('skipped');
  });
});

describe('a retry wait longer than the in-process limit', () => {
  it.each(MODES)('parks the run between attempts; resumed, the action runs again, its pre_log written once (%s)', async (mode) => {
    const { start, due, resume, lines } = await setup(mode);
    const first = await start('polling', { k: mode });
    expect(first.response.body).toMatchObject({ status: 'suspended', action: 'Flaky', reason: 'retry', resume_at: '2026-03-01T10:01:00.250Z' });
    const r = await resume(await due(t0 + 60_000), { kind: 'wake' });
    expect(r.response).toMatchObject({ status: 200 });
    expect(r.state.steps.Flaky).toMatchObject({ outcome: 'succeeded', attempts: 2 });
    expect(up.count(`/flaky/${mode}`)).toBe(2);
    expect(lines.filter((l) => l.action === 'Flaky').map((l) => [l.log, l.msg])).toEqual([['pre_log', 'polling'], ['success_log', 'polled 200']]);
  });
});

describe('retry waits that stay in process', () => {
  it.each(MODES)('without a durable store, or up to the limit itself, the wait happens in process (%s)', async (mode) => {
    const { start, clock } = await setup(mode);
    const slept: number[] = [];
    clock.sleep = async (ms: number) => { slept.push(ms); };
    const plain = await start('polling', { k: `${mode}-memory` }, { services: { clock, store: new MemoryStore(), maxDelayMs: 1000 } });
    expect(plain.response).toMatchObject({ status: 200 });
    expect(plain.state.steps.Flaky).toMatchObject({ outcome: 'succeeded', attempts: 2 });
    const durable = Object.assign(new MemoryStore(), { durable: true });
    const atLimit = await start('polling', { k: `${mode}-limit` }, { services: { clock, store: durable, maxDelayMs: 60_000 } });
    expect(atLimit.response).toMatchObject({ status: 200 });
    expect(slept).toEqual([60_000, 60_000]);
  });
});

describe('a retry wait past the run\'s deadline', () => {
  it.each(MODES)('is not taken: the action fails saying why (%s)', async (mode) => {
    const { start, clock } = await setup(mode);
    const r = await start('polling', { k: `${mode}-deadline` }, { services: { clock, store: new MemoryStore(), runDeadlineMs: 30_000 } });
    expect(r.response.status).toBe(502);
    expect(r.state.steps.Flaky!.error).toBe(`HTTP 503 from GET ${up.url}/flaky/${mode}-deadline (expected 2xx or 304); retries stopped: the run's deadline (2026-03-01T10:00:30.250Z) comes before the next attempt`);
    expect(up.count(`/flaky/${mode}-deadline`)).toBe(1);
  });
});

describe('a run taken over from its last checkpoint', () => {
  it.each(MODES)('continues from the action in flight, which is sent again with the same idempotency key (%s)', async (mode) => {
    const { start, plan, env, services } = await setup(mode);
    const saved: RunState[] = [];
    const checkpoint = async (s: RunState) => { saved.push(JSON.parse(JSON.stringify(s)) as RunState); };
    const whole = await start('held', { id: 3 }, { checkpoint });
    expect(whole.response).toMatchObject({ status: 200, body: { First: 3 } });
    expect(saved.map((s) => [s.cursor, s.retry?.action])).toEqual([[0, 'First'], [1, 'Call'], [2, undefined]]);
    const keys = () => up.hits.filter((h) => h.path === '/echo').map((h) => h.headers['idempotency-key']);
    // The node died during Call: another one takes the run over from the checkpoint before it.
    const sent = keys().length;
    const key = saved[1]!.retry!.executionId;
    expect(keys().at(-1)).toBe(key);
    const r = await resumeRun(plan, saved[1]!, { kind: 'takeover' }, { env, services, checkpoint });
    expect(r.response).toMatchObject({ status: 200, body: { First: 3, Call: { n: sent + 1 } } });
    expect(keys().length).toBe(sent + 1);
    expect(keys().at(-1)).toBe(key);
  });
  it.each(MODES)('a tick\'s run stored before it started is started from the beginning (%s)', async (mode) => {
    const { plan, iface, env, services } = await setup(mode);
    const state = { ...newRunState(plan, iface('later'), postRequest('/later', { id: 9 }), { trigger: 'schedule', env, services, runId: 'tick-run' }), unstarted: true as const };
    const r = await resumeRun(plan, state, { kind: 'takeover' }, { env, services });
    expect(r.response.body).toMatchObject({ run_id: 'tick-run', status: 'suspended', action: 'Wait' });
    expect(r.state.steps.First).toMatchObject({ outcome: 'succeeded', data: 9 });
    expect(r.state).not.toHaveProperty('unstarted');
  });
});

describe('a run that cannot be continued here', () => {
  it.each(MODES)('names the run and what is missing (%s)', async (mode) => {
    const { start, due, plan, env, services } = await setup(mode);
    await start('later', { id: 1 });
    const state = await due(t0 + 10_000);
    const elsewhere = { ...state, iface: 'gone' };
    for (const kind of ['wake', 'takeover'] as const)
      await expect(resumeRun(plan, elsewhere, { kind }, { env, services })).rejects.toThrow(`run ${state.id}: interface gone is not in config resume`);
    // A run resumes by the name of the action it waits in (a reload may have moved it): a cursor
    // past the end with no such name is still refused.
    await expect(resumeRun(plan, { ...state, cursor: 9, wake: undefined }, { kind: 'wake' }, { env, services })).rejects.toThrow(`run ${state.id}: no action at 9`);
    await expect(resumeRun(plan, { ...state, wake: { ...state.wake!, action: 'Renamed' } }, { kind: 'wake' }, { env, services })).rejects.toThrow(`run ${state.id}: action "Renamed" it waits in is no longer in interface later`);
  });
});
