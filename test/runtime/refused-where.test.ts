// Where a refusal was made is kept with it (seq.failures, the runs API's `refused_in`): one made
// while an action's settings were filled in from the request (a `..` URL segment), before its kind
// ran, says `settings`; one its kind made (a destination the outbound policy denies) does not. A
// test case replaying the run refuses the first by itself and stands in for the second
// (`pipewright test --from-run`). A refusal of the action's input (a jq bound its tests exceeded) is
// the settings' too. On both paths, with real requests and a real policy.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { executeInterface } from '../../runtime/exec/run.ts';
import { processEnvironment } from '../../runtime/environment.ts';
import { configureJqBounds } from '../../runtime/jq/bounds.ts';
import { pinOutboundPolicy, unpinOutboundPolicy } from '../../runtime/network/outbound.ts';
import { detailView } from '../../runtime/server/run-view.ts';
import { systemClock } from '../../runtime/services.ts';
import { planOf, postRequest } from '../support/plans.ts';

const CONFIG = `
interfaces:
  item:
    method: POST
    actions:
      - name: Item
        url: a|var::API|/items/a|body::sku|
        output: http
  notify:
    method: POST
    actions:
      - name: Notify
        url: a|var::DENIED|/notify
        retry: { attempts: 3, delay: 1m }
        output: http
  pick:
    method: POST
    actions:
      - name: Pick
        conditional_input:
          - input: a|body|
            tests: [{ jq: "last(range(.n))", is_not_null: true }]
        agent: { url: a|var::DENIED|/v1/chat/completions, model: m, input: hello }
        retry: { attempts: 3, delay: 1m }
        output: http
`;

afterEach(() => { unpinOutboundPolicy(); configureJqBounds({}); });
afterAll(() => closeHttpPools());

describe.each(['compiled', 'interpreted'] as const)('%s', (mode) => {
  const run = async (name: string, body: unknown) => {
    const plan = await planOf(`refused_where_${mode}.yaml`, mode, CONFIG);
    const i = plan.interfaces.find((x) => x.name === name)!;
    // Nothing listens on either address: the refusals come before any connection.
    return executeInterface(plan, i, postRequest(`/${name}`, body), {
      trigger: 'test', env: processEnvironment({ SERVICE__VAR__API: 'http://127.0.0.1:9', SERVICE__VAR__DENIED: 'http://10.255.255.1' }), services: { clock: systemClock },
    });
  };

  it('a value refused in the settings: 400, kept as refused in its settings', async () => {
    const r = await run('item', { sku: '..' });
    expect(r.response.status).toBe(400);
    expect(r.response.body).toEqual({ error: { status: 400, message: 'action "Item" refused: a|body::sku| is "..", which would move the URL path: refused', action: 'Item' } });
    expect(r.state.seq.failures.Item).toEqual({ kind: 'refused', status: 400, settings: true });
    expect(detailView(r.state, { possible: true }).actions).toEqual([expect.objectContaining({ name: 'Item', outcome: 'failed', attempts: 1, refused: 400, refused_in: 'settings' })]);
  });

  it('a destination the policy denies: 403 from the kind, never retried, kept as refused without settings', async () => {
    pinOutboundPolicy({ SERVICE__OUTBOUND_DENY: '10.255.255.0/24' });
    const r = await run('notify', {});
    expect(r.response.status).toBe(403);
    expect((r.response.body as { error: { message: string } }).error.message).toMatch(/^action "Notify" refused: outbound call refused: 10\.255\.255\.1 is denied by SERVICE__OUTBOUND_DENY/);
    expect(r.state.seq.failures.Notify).toEqual({ kind: 'refused', status: 403 });
    const [a] = detailView(r.state, { possible: true }).actions;
    expect(a).toMatchObject({ name: 'Notify', outcome: 'failed', attempts: 1, refused: 403 });
    expect(a).not.toHaveProperty('refused_in');
    expect(a).not.toHaveProperty('transport');
  });

  it('a jq bound the input\'s tests exceeded: 422, kept as refused in its settings, never retried', async () => {
    configureJqBounds({ SERVICE__JQ_TIMEOUT_MS: '10' });
    const r = await run('pick', { n: 1e15 });
    expect(r.response.status).toBe(422);
    expect((r.response.body as { error: { message: string } }).error.message).toMatch(/^action "Pick" refused: .*jq: the program did not finish within 10 ms \(SERVICE__JQ_TIMEOUT_MS\)/);
    expect(r.state.seq.failures.Pick).toEqual({ kind: 'refused', status: 422, settings: true });
    expect(r.state.steps.Pick).toMatchObject({ outcome: 'failed', attempts: 1 });
    expect(detailView(r.state, { possible: true }).actions).toEqual([expect.objectContaining({ name: 'Pick', refused: 422, refused_in: 'settings' })]);
  });

  it('an input that resolves, then a kind that fails: not the settings\'', async () => {
    pinOutboundPolicy({ SERVICE__OUTBOUND_DENY: '10.255.255.0/24' });
    const r = await run('pick', { n: 2 });
    expect(r.response.status).toBe(403);
    expect(r.state.seq.failures.Pick).toEqual({ kind: 'refused', status: 403 });
  });
});
