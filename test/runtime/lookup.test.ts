// Lookup fan-out against a real upstream that counts concurrency: order, limit, partition, item
// timeouts, the whole-loop timeout, and inherited fields; both paths give the same bytes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeInterface, type RunResult } from '../../runtime/exec/run.ts';
import { concurrencyOf } from '../../runtime/exec/lookup.ts';
import { systemClock, type Services } from '../../runtime/services.ts';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { processEnvironment } from '../../runtime/environment.ts';
import { MemoryStore } from '../../runtime/store/memory.ts';
import { planOf } from '../support/plans.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';

type Up = Awaited<ReturnType<typeof countingUpstream>>;
let up: Up;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  up = await countingUpstream({
    '/member/*': async (req, res) => {
      const id = Number(req.url!.split('/')[2]);
      await sleep(id === 13 ? 400 : 20 + (id % 3) * 10);
      if (id % 7 === 0) return json(res, 404, { error: `no member ${id}` });
      json(res, 200, { id, name: `m${id}` });
    },
    '/code/*': (req, res) => json(res, Number(req.url!.split('/')[2]), { code: Number(req.url!.split('/')[2]) }),
  });
});
afterAll(async () => { await up.close(); await closeHttpPools(); });

let seq = 0;
async function both(yaml: string, body: unknown, services: Services = { clock: systemClock }): Promise<RunResult> {
  const results: RunResult[] = [];
  for (const mode of ['compiled', 'interpreted'] as const) {
    const plan = await planOf(`lookup${++seq}.yaml`, mode, yaml);
    const i = plan.interfaces[0]!;
    const env = processEnvironment({ SERVICE__VAR__API: up.url });
    results.push(await executeInterface(plan, i, { method: 'POST', path: '/x', params: {}, headers: {}, body, rawBody: JSON.stringify(body) }, { trigger: 'test', env, services }));
  }
  expect(JSON.stringify(results[1]!.response)).toBe(JSON.stringify(results[0]!.response));
  return results[0]!;
}

const cfg = (extra: string) => `
interfaces:
  x:
    actions:
      - name: Members
        lookup: a|body::ids|
${extra.replace(/^/gm, '        ')}
        actions:
          - name: Get
            url: a|var::API|/member/a|body::id|
            post_transforms:
              - keep_attributes: [name]
        output: http
`;

const ids = (n: number, skip: number[] = []) => ({ ids: Array.from({ length: n }, (_, i) => ({ id: i + 1 })).filter((x) => !skip.includes(x.id)) });

describe('lookup_concurrency cap', () => {
  it('is capped at 50 in managed mode only', () => {
    expect(concurrencyOf(80, {})).toBe(80);
    expect(concurrencyOf(80, { SERVICE__MANAGED_MODE: '1' })).toBe(50);
    expect(concurrencyOf(10, { SERVICE__MANAGED_MODE: 'true' })).toBe(10);
    expect(concurrencyOf(80, { SERVICE__MANAGED_MODE: 'TRUE' })).toBe(50);
    for (const off of ['0', 'false', 'yes', '10', 'true1', 'xtrue']) expect(concurrencyOf(80, { SERVICE__MANAGED_MODE: off }), off).toBe(80);
  });
});

describe('lookup', () => {
  it('keeps input order and never exceeds lookup_concurrency', async () => {
    const r = await both(cfg('lookup_concurrency: 3'), ids(12, [7]));
    expect(r.response.body).toEqual([1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12].map((i) => ({ name: `m${i}` })));
    expect(up.maxInFlight).toBeLessThanOrEqual(3);
    expect(up.maxInFlight).toBe(3);
  });

  it('partitions succeeded and failed items (HTTP code >= 400 or timed out)', async () => {
    const r = await both(cfg('lookup_partition: true\nitem_timeout: 200'), { ids: [{ id: 7 }, { id: 13 }, { id: 15 }] });
    const body = r.response.body as { succeeded: unknown[]; failed: Array<Record<string, unknown>> };
    expect(body.failed.map((f) => f.item)).toEqual([{ id: 7 }, { id: 13 }]);
    expect(body.failed[0]).toMatchObject({ item: { id: 7 }, http_code: 404, data: { error: 'no member 7' } });
    expect(String(body.failed[0]!.error)).toMatch(/^HTTP 404 from GET/);
    expect(body.failed[1]).toEqual({ item: { id: 13 }, error: 'item timed out after 200 ms', data: null });
    expect(body.succeeded).toEqual([{ name: 'm15' }]);
  });

  it('inherits fields of each item into its result', async () => {
    const yaml = cfg('lookup_inherit: { member_id: id }\nlookup_inherit_jq: { label: \'"member-" + (.id | tostring)\' }');
    const r = await both(yaml, ids(3));
    expect(r.response.body).toEqual([1, 2, 3].map((i) => ({ name: `m${i}`, member_id: i, label: `member-${i}` })));
  });

  it('fails the action when the whole loop passes its timeout', async () => {
    const r = await both(cfg('timeout: 150\nlookup_concurrency: 1'), ids(10));
    expect(r.state.steps.Members!.outcome).toBe('failed');
    expect(r.state.steps.Members!.error).toBe('lookup timed out');
    expect(r.response.status).toBe(504);
  });

  it('one object is one item; a missing list is no items', async () => {
    const yaml = cfg('').replace('lookup: a|body::ids|', 'lookup: a|body::one|');
    expect((await both(yaml, { one: { id: 2 } })).response.body).toEqual([{ name: 'm2' }]);
    expect((await both(yaml, {})).response).toEqual({ status: 200, headers: {}, body: [] });
  });

  it("an item's result is its output: http action's data, else the last action that ran", async () => {
    const nested = (first: string) => `
interfaces:
  x:
    actions:
      - name: Members
        lookup: a|body::ids|
        output: http
        actions:
          - name: Get
            url: a|var::API|/member/a|body::id|
${first}          - name: Label
            input: label a|body::id|
          - name: Never
            run_when_failed: [Get]
            input: never
`;
    expect((await both(nested(''), ids(2))).response.body).toEqual(['label 1', 'label 2']);
    expect((await both(nested('            output: http\n'), ids(2))).response.body).toEqual([{ id: 1, name: 'm1' }, { id: 2, name: 'm2' }]);
  });

  it("an item's action names are data: names of Object.prototype members read the item's own records", async () => {
    const r = await both(`
interfaces:
  x:
    actions:
      - name: __proto__
        input: outer
      - name: Members
        lookup: a|body::ids|
        output: http
        actions:
          - name: constructor
            input: c a|body::id|
          - name: toString
            run_when_succeeded: [constructor, __proto__]
            input: a|constructor| a|__proto__|
`, ids(2));
    expect(r.response.body).toEqual(['c 1 outer', 'c 2 outer']);
  });

  it('partition: a status of 400 or more fails the item even when accepted; inherited fields go to succeeded items only', async () => {
    const r = await both(`
interfaces:
  x:
    actions:
      - name: Calls
        lookup: a|body::codes|
        lookup_partition: true
        lookup_inherit: { code_asked: c, missing: nope }
        output: http
        actions:
          - name: Get
            http:
              url: a|var::API|/code/a|body::c|
              expect_status: [2xx, 399, 400]
`, { codes: [{ c: 200 }, { c: 399 }, { c: 400 }] });
    expect(r.response.body).toEqual({
      succeeded: [{ code: 200, code_asked: 200, missing: null }, { code: 399, code_asked: 399, missing: null }],
      failed: [{ item: { c: 400 }, http_code: 400, data: { code: 400 } }],
    });
  });

  it('inherited fields wrap a result that is not an object', async () => {
    const r = await both(`
interfaces:
  x:
    actions:
      - name: Names
        lookup: a|body::ids|
        lookup_inherit: { member: id }
        output: http
        actions:
          - name: Get
            url: a|var::API|/member/a|body::id|
            post_transforms:
              - extract_value: name
`, ids(2));
    expect(r.response.body).toEqual([{ value: 'm1', member: 1 }, { value: 'm2', member: 2 }]);
  });

  it('inherited fields wrap an array or null result too; an object result is copied, not changed in place', async () => {
    const r = await both(`
interfaces:
  x:
    actions:
      - name: Wrapped
        lookup: a|body::items|
        lookup_inherit: { member: id }
        output: http
        actions:
          - name: Pick
            input: a|body::value|
`, { items: [{ id: 1, value: [1, 2] }, { id: 2, value: null }, { id: 3 }, { id: 4, value: { k: 'v' } }] });
    expect(r.response.body).toEqual([{ value: [1, 2], member: 1 }, { value: null, member: 2 }, { value: null, member: 3 }, { k: 'v', member: 4 }]);
    expect(r.state.steps.Wrapped!.data).toEqual(r.response.body);
  });

  it('an item that would suspend the run (a long delay, a durable store) fails instead, the same on both paths', async () => {
    const yaml = `
interfaces:
  x:
    actions:
      - name: Waits
        lookup: a|body::ids|
        lookup_partition: true
        output: http
        actions:
          - name: Pause
            delay: 1h
`;
    const durable = { clock: systemClock, store: Object.assign(new MemoryStore(), { durable: true }) };
    const r = await both(yaml, ids(1), durable);
    expect(r.response).toEqual({ status: 200, headers: {}, body: { succeeded: [], failed: [{ item: { id: 1 }, error: 'Pause: a lookup item cannot suspend the run (delay)', data: null }] } });
    // Without one the delay is refused: a failure with no HTTP status still fails the item.
    const refused = await both(yaml, ids(1));
    expect(refused.response.body).toMatchObject({ succeeded: [], failed: [{ item: { id: 1 }, data: null }] });
    expect(String((refused.response.body as { failed: Array<{ error: unknown }> }).failed[0]!.error)).toMatch(/^delay of 3600000 ms exceeds SERVICE__MAX_DELAY_SECS/);
  });
});
