// The action sequence, request to outcome on both paths: skip propagation after an only_new that had
// nothing new (run_when_succeeded, depends_on, a marker reading it), run_on_assertion that cannot be
// evaluated, state reads before an action, handled failures, and a client that went away mid-run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { executeInterface, resumeRun } from '../../runtime/exec/run.ts';
import { RunCancelled } from '../../runtime/exec/sequence.ts';
import { RunCancel } from '../../runtime/run-cancel.ts';
import { RunStopped } from '../../runtime/exec/shutdown.ts';
import { systemClock } from '../../runtime/services.ts';
import { MemoryStore } from '../../runtime/store/memory.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { planOf, postRequest, testEnv } from '../support/plans.ts';
import { runBoth } from '../support/run-both.ts';

let up: Awaited<ReturnType<typeof countingUpstream>>;
let disconnect: (() => void) | undefined;
let shutdown: (() => void) | undefined;
beforeAll(async () => {
  up = await countingUpstream({
    '/first': (_q, res) => { disconnect?.(); json(res, 200, { n: 1 }); },
    '/second': (_q, res) => json(res, 200, { n: 2 }),
    '/missing': (_q, res) => json(res, 404, {}),
    '/shut': (_q, res) => { shutdown?.(); json(res, 200, { n: 0 }); },
  });
});
afterAll(async () => { await up.close(); await closeHttpPools(); });

describe('an only_new with nothing new skips what depends on it, even when the condition itself is met', () => {
  const yaml = `
interfaces:
  x:
    actions:
      - name: Start
        input: go
        hide_action: true
      - name: Fresh
        input: a|body::events|
        only_new: { key: seq-events, id: .id }
      - name: AfterSuccess
        run_when_succeeded: { actions: [Start, Fresh], at_least: 1 }
        input: s
      - name: AfterCompletion
        depends_on: { actions: [Start, Fresh], at_least: 1 }
        input: d
      - name: Reads
        input: { fresh: a|Fresh| }
      - name: Independent
        input: i
      - name: ReadsReads
        input: { again: a|Reads| }
      - name: Publish
        input: a|ReadsReads->again|
      - name: Counter
        state: { increment: { key: seq-runs } }
      - name: ReadsState
        input: a|state::seq-runs|
`;
  it.each(['compiled', 'interpreted'] as const)('each kind of dependency is skipped with the reason; others run; a state read sees the value set before it (%s)', async (mode) => {
    const plan = await planOf('only-new.yaml', mode, yaml);
    const services = { clock: systemClock, store: new MemoryStore() };
    const run = () => executeInterface(plan, plan.interfaces[0]!, { method: 'POST', path: '/x', params: {}, headers: {}, body: { events: [{ id: 1 }] }, rawBody: '' }, { trigger: 'test', env: testEnv(), services });
    const first = await run();
    expect(first.response.body).toEqual({ Fresh: [{ id: 1 }], AfterSuccess: 's', AfterCompletion: 'd', Reads: { fresh: [{ id: 1 }] }, Independent: 'i', ReadsReads: { again: { fresh: [{ id: 1 }] } }, Publish: { fresh: [{ id: 1 }] }, Counter: 1, ReadsState: 1 });
    const again = await run();
    // Transitively (issue 30): what depends on a skipped dependant is skipped too.
    for (const n of ['AfterSuccess', 'AfterCompletion', 'Reads', 'ReadsReads', 'Publish']) {
      expect(again.state.steps[n], n).toEqual({ outcome: 'skipped', attempts: 0, skippedEmpty: true, error: 'skipped: an action it depends on had nothing to do' });
    }
    expect(again.state.steps.Fresh).toMatchObject({ outcome: 'skipped', error: 'skipped: nothing new' });
    expect(again.response).toEqual({ status: 200, headers: {}, body: { Independent: 'i', Counter: 2, ReadsState: 2 } });
  });
});

describe('run_on_assertion', () => {
  it('a test that cannot be evaluated counts as not met', async () => {
    const r = await runBoth(`
interfaces:
  x:
    actions:
      - name: A
        input: a
        run_on_assertion:
          tests: [{ jq: 'error("boom")', is_not_null: true }]
      - name: B
        input: b
        run_on_assertion:
          tests: [{ value: a|body::n|, is_greater_than: 1 }, { value: a|body::n|, is_less_than: 3 }]
      - name: C
        input: c
        run_on_assertion:
          tests: [{ value: a|body::n|, is_greater_than: 1 }, { value: a|body::n|, is_less_than: 2 }]
`, 'x', { body: { n: 2 } });
    expect(r.state.steps.A).toEqual({ outcome: 'skipped', attempts: 0, error: 'skipped: run_on_assertion not met' });
    expect(r.state.steps.C!.outcome).toBe('skipped');
    expect(r.response.body).toEqual({ B: 'b' });
  });
});

describe('handled failures', () => {
  it('a run_when_failed action handles only the failures it names', async () => {
    const r = await runBoth(`
interfaces:
  x:
    actions:
      - name: A
        url: a|var::API|/missing
      - name: B
        depends_on: [A]
        url: a|var::API|/missing
      - name: HandleA
        run_when_failed: [A]
        input: handled
`, 'x', {}, { API: up.url });
    expect(r.response.status).toBe(502);
    expect(r.response.body).toEqual({ error: { status: 502, message: 'action "B" failed', action: 'B' } });
  });
});

/** Two calls: a client that leaves during the first must keep the second from starting. */
const firstThenSecond = `
interfaces:
  x:
    actions:
      - name: First
        url: a|var::API|/first
      - name: Second
        url: a|var::API|/second
`;

describe('a client that goes away', () => {
  it.each(['compiled', 'interpreted'] as const)('stops the run before the next action starts (%s)', async (mode) => {
    const plan = await planOf('cancel.yaml', mode, firstThenSecond);
    const cancel = new RunCancel();
    disconnect = () => cancel.abort(new Error('the client disconnected'));
    const before = up.count('/second');
    const run = executeInterface(plan, plan.interfaces[0]!, { method: 'POST', path: '/x', params: {}, headers: {}, body: null, rawBody: '' }, { trigger: 'test', env: testEnv({ API: up.url }), services: { clock: systemClock, cancel } });
    await expect(run).rejects.toThrow(RunCancelled);
    await expect(run).rejects.toMatchObject({ statusCode: 499, message: 'run cancelled: the client disconnected' });
    expect(up.count('/second')).toBe(before);
    disconnect = undefined;
  });
});

describe('a shutdown during a run (in process; the served and durable cases: test/ops/shutdown, test/durable/shutdown-park)', () => {
  const yaml = `
interfaces:
  x:
    actions:
      - name: First
        url: a|var::API|/second
      - name: During
        url: a|var::API|/shut
      - name: After
        url: a|var::API|/second
`;
  /** A store that keeps runs durably (parks them), one that does not, or none at all. */
  const storeOf = (kind: 'durable' | 'memory' | 'none') => kind === 'none' ? undefined : Object.assign(new MemoryStore(), { durable: kind === 'durable' });
  /** Runs the config with a shutdown signal that `/shut` aborts, or that is aborted already. */
  const start = async (mode: 'compiled' | 'interpreted', store: 'durable' | 'memory' | 'none', o: { abortedBefore?: boolean; config?: string; cancel?: RunCancel } = {}) => {
    const plan = await planOf('shutdown.yaml', mode, o.config ?? yaml);
    const stop = new AbortController();
    if (o.abortedBefore) stop.abort(); else shutdown = () => stop.abort();
    return executeInterface(plan, plan.interfaces[0]!, postRequest('/x'), { trigger: 'test', env: testEnv({ API: up.url }), services: { clock: systemClock, store: storeOf(store), shutdown: stop.signal, ...(o.cancel ? { cancel: o.cancel } : {}) } });
  };
  const stopped = (id = '00000000-0000-4000-8000-000000000001') => ({ statusCode: 503, runId: id, message: `run ${id} stopped: the server shut down before it finished and has no durable store to keep it` });
  it.each(['compiled', 'interpreted'] as const)('without a durable store the run is stopped with its id (%s)', async (mode) => {
    const before = up.count('/second');
    const run = start(mode, 'memory');
    await expect(run).rejects.toThrow(RunStopped);
    await expect(run).rejects.toMatchObject(stopped());
    expect(up.count('/second')).toBe(before + 1); // First only: After never starts
    shutdown = undefined;
  });
  it.each(['compiled', 'interpreted'] as const)('without any store it is stopped the same way (%s)', async (mode) => {
    await expect(start(mode, 'none')).rejects.toMatchObject(stopped());
    shutdown = undefined;
  });
  it.each(['compiled', 'interpreted'] as const)('with a durable store it is parked at the action in flight (%s)', async (mode) => {
    const r = await start(mode, 'durable');
    expect(r.response).toMatchObject({ status: 202, body: { status: 'suspended', action: 'During', reason: 'shutdown' } });
    expect(r.state.cursor).toBe(1);
    shutdown = undefined;
    // Resumed (on this node after a restart, or another), the action cut short runs again.
    const plan = await planOf('shutdown.yaml', mode, yaml);
    const shut = up.count('/shut');
    const again = await resumeRun(plan, r.state, { kind: 'wake' }, { env: testEnv({ API: up.url }), services: { clock: systemClock, store: storeOf('durable') } });
    expect(again.response).toMatchObject({ status: 200, body: { First: { n: 2 }, During: { n: 0 }, After: { n: 2 } } });
    expect(up.count('/shut')).toBe(shut + 1);
  });
  it.each(['compiled', 'interpreted'] as const)('a shutdown that never comes changes nothing (%s)', async (mode) => {
    const before = up.count('/second');
    shutdown = undefined;
    const plan = await planOf('shutdown.yaml', mode, yaml);
    const r = await executeInterface(plan, plan.interfaces[0]!, postRequest('/x'), { trigger: 'test', env: testEnv({ API: up.url }), services: { clock: systemClock, store: storeOf('durable'), shutdown: new AbortController().signal } });
    expect(r.response).toMatchObject({ status: 200, body: { First: { n: 2 }, During: { n: 0 }, After: { n: 2 } } });
    expect(up.count('/second')).toBe(before + 2);
  });
  it.each(['compiled', 'interpreted'] as const)('a run that begins after the shutdown starts nothing: stopped, or parked at its first action (%s)', async (mode) => {
    const before = up.count('/second');
    await expect(start(mode, 'memory', { abortedBefore: true })).rejects.toMatchObject(stopped());
    const r = await start(mode, 'durable', { abortedBefore: true });
    expect(r.response).toMatchObject({ status: 202, body: { status: 'suspended', action: 'First', reason: 'shutdown' } });
    expect(r.state.cursor).toBe(0);
    expect(up.count('/second')).toBe(before);
  });
  it.each(['compiled', 'interpreted'] as const)('a client that leaves while no shutdown came: the run is cancelled as without a signal (%s)', async (mode) => {
    const cancel = new RunCancel();
    disconnect = () => cancel.abort(new Error('the client disconnected'));
    const run = start(mode, 'durable', { cancel, config: firstThenSecond });
    await expect(run).rejects.toThrow(RunCancelled);
    disconnect = undefined;
    shutdown = undefined;
  });

  // A run resumed after a delay: its earlier actions settled before this node's part began.
  const resumable = `
interfaces:
  x:
    actions:
      - name: Wait
        delay: 10s
      - name: During
        url: a|var::API|/shut
      - name: After
        url: a|var::API|/second
`;
  const resumed = async (mode: 'compiled' | 'interpreted', config: string, abortedBefore: boolean) => {
    const plan = await planOf('shutdown-resume.yaml', mode, config);
    const env = testEnv({ API: up.url });
    const store = storeOf('durable');
    const first = await executeInterface(plan, plan.interfaces[0]!, postRequest('/x'), { trigger: 'test', env, services: { clock: systemClock, store, maxDelayMs: 100 } });
    expect(first.response).toMatchObject({ status: 202, body: { status: 'suspended', action: 'Wait', reason: 'delay' } });
    const stop = new AbortController();
    if (abortedBefore) stop.abort(); else shutdown = () => stop.abort();
    return resumeRun(plan, first.state, { kind: 'wake' }, { env, services: { clock: systemClock, store, maxDelayMs: 100, shutdown: stop.signal } });
  };
  it.each(['compiled', 'interpreted'] as const)('a resumed run is parked at the action in flight, not counting what settled before (%s)', async (mode) => {
    const before = up.count('/second');
    const r = await resumed(mode, resumable, false);
    expect(r.response).toMatchObject({ status: 202, body: { status: 'suspended', action: 'During', reason: 'shutdown' } });
    expect(r.state.cursor).toBe(1);
    expect(up.count('/second')).toBe(before);
    shutdown = undefined;
  });
  it.each(['compiled', 'interpreted'] as const)('a run resumed after its last action, with the shutdown come already, finishes (%s)', async (mode) => {
    const r = await resumed(mode, `
interfaces:
  x:
    actions:
      - name: First
        input: done
      - name: Wait
        delay: 10s
`, true);
    expect(r.response).toEqual({ status: 200, headers: expect.anything(), body: { First: 'done', Wait: null } });
  });
});
