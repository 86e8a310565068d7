// run_when_succeeded / run_when_failed / depends_on, through both paths, request to response.
// depends_on runs once the named actions completed, whatever their outcome; a skipped one never completes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { runBoth } from '../support/run-both.ts';
import { startUpstream, type Upstream } from '../support/upstream.ts';

let up: Upstream;
beforeAll(async () => { up = await startUpstream(); });
afterAll(async () => { await up.close(); await closeHttpPools(); });
const run = (yaml: string) => runBoth(yaml, 'x', {}, { API: up.url });

describe('depends_on', () => {
  it('runs after a failed action (it completed), and the failure still fails the run', async () => {
    const r = await run(`
interfaces:
  x:
    show_error_detail: true
    actions:
      - name: Charge
        url: a|var::API|/always-503
      - name: Release
        depends_on: [Charge]
        input: released
      - name: Notify
        run_when_succeeded: [Charge]
        input: notified
`);
    expect(r.state.steps.Release).toMatchObject({ outcome: 'succeeded', data: 'released' });
    expect(r.state.steps.Notify!.outcome).toBe('skipped');
    expect(r.response.status).toBe(502);
    expect(r.response.body).toEqual({ error: { status: 502, message: 'action "Charge" failed', action: 'Charge', detail: expect.stringMatching(/^HTTP 503 from GET /), data: { error: 'unavailable' } } });
  });

  it('runs after a succeeded action too', async () => {
    const r = await run(`
interfaces:
  x:
    actions:
      - name: A
        input: a
      - name: B
        depends_on: [A]
        input: b
`);
    expect(r.response).toEqual({ status: 200, headers: {}, body: { A: 'a', B: 'b' } });
  });

  // Fetch fails (404), Shape is skipped after it, Handle handles the failure; then Finally.
  const yaml = (depends: string, detail = false) => `
interfaces:
  x:
    show_error_detail: ${detail}
    actions:
      - name: Fetch
        url: a|var::API|/orders/8
      - name: Shape
        input: shaped
      - name: Handle
        run_when_failed: [Fetch]
        input: handled
      - name: Finally
        depends_on: ${depends}
        input: done
`;

  it('a skipped action never completes: skipped, or http_code_on_error fails the run with a message naming it', async () => {
    const skipped = await run(yaml('[Fetch, Shape]', true));
    expect(skipped.state.steps.Shape!.outcome).toBe('skipped');
    expect(skipped.state.steps.Finally).toMatchObject({ outcome: 'skipped', error: 'depends_on not met: Shape did not complete' });
    expect(skipped.response).toEqual({ status: 200, headers: {}, body: { Fetch: { error: 'not found' }, Handle: 'handled' } });

    const forced = await run(yaml('{ actions: [Fetch, Shape], http_code_on_error: 424 }', true));
    expect(forced.response).toEqual({ status: 424, headers: {}, body: { error: { status: 424, message: 'action "Finally" failed', action: 'Finally', detail: 'depends_on not met: Shape did not complete' } } });
  });

  it('at_least counts completed actions, failed ones included', async () => {
    const atLeast = (n: number) => yaml(`{ actions: [Fetch, Shape, Handle], at_least: ${n}, http_code_on_error: 409 }`);
    // Fetch failed and Handle succeeded (2 completed); Shape was skipped.
    expect((await run(atLeast(2))).response).toEqual({ status: 200, headers: {}, body: { Fetch: { error: 'not found' }, Handle: 'handled', Finally: 'done' } });
    const three = await run(atLeast(3));
    expect(three.response.status).toBe(409);
    expect(three.response.body).toEqual({ error: { status: 409, message: 'action "Finally" failed', action: 'Finally' } });
  });
});

describe('skip reasons name every action concerned', () => {
  it('all unhandled failures, and all actions that did not complete', async () => {
    const r = await run(`
interfaces:
  x:
    actions:
      - name: A
        url: a|var::API|/orders/8
      - name: B
        depends_on: [A]
        url: a|var::API|/always-503
      - name: C
        input: c
      - name: D
        input: d
      - name: Finally
        depends_on: { actions: [A, C, D], at_least: 1 }
        input: done
      - name: Strict
        depends_on: { actions: [A, C, D], http_code_on_error: 424 }
        input: strict
`);
    expect(r.state.steps.C).toMatchObject({ outcome: 'skipped', error: 'skipped: A, B failed' });
    expect(r.state.steps.Finally).toMatchObject({ outcome: 'succeeded', data: 'done' });
    expect(r.state.steps.Strict).toMatchObject({ outcome: 'failed', error: 'depends_on not met: C, D did not complete' });
    expect(r.response.status).toBe(424);
  });
});

describe('run_when_succeeded and run_when_failed', () => {
  it('an unmet run_when_succeeded skips the action and does not fail the run', async () => {
    const r = await run(`
interfaces:
  x:
    actions:
      - name: Fetch
        url: a|var::API|/orders/8
      - name: Use
        run_when_succeeded: [Fetch]
        input: used
      - name: Recover
        run_when_failed: [Fetch]
        input: recovered
`);
    expect(r.state.steps.Use).toMatchObject({ outcome: 'skipped', error: 'skipped: run_when_succeeded not met' });
    expect(r.response).toEqual({ status: 200, headers: {}, body: { Fetch: { error: 'not found' }, Recover: 'recovered' } });
  });

  it('an unmet run_when_failed skips the action; an unhandled failure skips default-ordered ones', async () => {
    const r = await run(`
interfaces:
  x:
    actions:
      - name: Order
        url: a|var::API|/orders/7
      - name: Recover
        run_when_failed: [Order]
        input: recovered
      - name: Fetch
        url: a|var::API|/orders/8
      - name: After
        input: after
`);
    expect(r.state.steps.Recover).toMatchObject({ outcome: 'skipped', error: 'skipped: run_when_failed not met' });
    expect(r.state.steps.After).toMatchObject({ outcome: 'skipped', error: 'skipped: Fetch failed' });
    expect(r.response.status).toBe(502);
  });
});
