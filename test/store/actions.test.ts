// The `state` and `only_new` kinds, called directly with a context, on both stores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onlyNew } from '../../runtime/actions/only-new.ts';
import { state } from '../../runtime/actions/state.ts';
import type { ActionContext } from '../../runtime/actions/types.ts';
import { initJq } from '../../runtime/jq/engine.ts';
import { MemoryStore } from '../../runtime/store/memory.ts';
import { PostgresStore } from '../../runtime/store/postgres.ts';
import type { Store } from '../../runtime/store-types.ts';
import { dropSchema, freshSchema, PG_URL } from './pg.ts';
import { runState } from './runs.ts';

const schema = freshSchema('actions');
const stores: Record<string, Store> = { memory: new MemoryStore(), postgres: new PostgresStore({ url: PG_URL, schema }) };
beforeAll(async () => { await initJq(); for (const s of Object.values(stores)) await s.init(); });
afterAll(async () => { for (const s of Object.values(stores)) await s.close(); await dropSchema(schema); });

let n = 0;
describe.each(Object.keys(stores))('%s store', (name) => {
  // Each test gets its own config name, so namespaces never collide across tests.
  const setup = () => {
    const clock = { t: 1_000_000 };
    const config = `cfg_${name}_${++n}`;
    let calls = 0;
    // Count calls of markSeen (not reads of the property).
    const store = new Proxy(stores[name]!, {
      get: (s, k) => {
        const v = Reflect.get(s, k);
        if (k !== 'markSeen' || typeof v !== 'function') return typeof v === 'function' ? v.bind(s) : v;
        return (...a: unknown[]) => { calls++; return (v as (...x: unknown[]) => unknown).apply(s, a); };
      },
    });
    const ctx = (input?: unknown, cfg = config): ActionContext => ({
      signal: new AbortController().signal, run: runState('r', { config: cfg }), scope: {} as never,
      services: { clock: { now: () => clock.t, sleep: async () => {} }, store }, attempt: 1, input, executionId: 'e',
    });
    return { clock, config, ctx, calls: () => calls, store: stores[name]! };
  };

  it('state: set, get, advance, increment, delete; namespace is the config name', async () => {
    const { ctx, config, store } = setup();
    expect(await state({ get: { key: 'k' } }, ctx())).toEqual({ ok: true, data: null });
    expect(await state({ set: { key: 'k', value: { b: 1, a: 2 } } }, ctx())).toEqual({ ok: true, data: { b: 1, a: 2 } });
    expect(await state({ get: { key: 'k' } }, ctx())).toEqual({ ok: true, data: { b: 1, a: 2 } });
    expect(await store.stateGet(config, ['k'], 0)).toEqual({ k: { b: 1, a: 2 } });
    expect(await state({ get: { key: 'k' } }, ctx(undefined, 'another'))).toEqual({ ok: true, data: null });
    expect(await state({ advance: { key: 'cur', value: 5 } }, ctx())).toEqual({ ok: true, data: { advanced: true, value: 5 } });
    expect(await state({ advance: { key: 'cur', value: 3 } }, ctx())).toEqual({ ok: true, data: { advanced: false, value: 5 } });
    expect(await state({ advance: { key: 'cur', value: null } }, ctx())).toEqual({ ok: true, data: { advanced: false, value: 5 } });
    expect(await state({ increment: { key: 'n' } }, ctx())).toEqual({ ok: true, data: 1 });
    expect(await state({ increment: { key: 'n', by: '4' } }, ctx())).toEqual({ ok: true, data: 5 });
    expect(await state({ delete: { key: 'n' } }, ctx())).toEqual({ ok: true, data: { deleted: true } });
    expect(await state({ delete: { key: 'n' } }, ctx())).toEqual({ ok: true, data: { deleted: false } });
    await state({ set: { key: 'shared', value: 1 }, namespace: 'team' }, ctx());
    expect(await state({ get: { key: 'shared' }, namespace: 'team' }, ctx(undefined, 'other-config'))).toEqual({ ok: true, data: 1 });
  });

  it('state: ttl durations and refusals', async () => {
    const { ctx, clock } = setup();
    await state({ set: { key: 'session', value: 'x', ttl: '2h' } }, ctx());
    clock.t += 2 * 3_600_000 - 1;
    expect((await state({ get: { key: 'session' } }, ctx())).data).toBe('x');
    clock.t += 1;
    expect((await state({ get: { key: 'session' } }, ctx())).data).toBeNull();
    await state({ advance: { key: 'c', value: 'abc' } }, ctx());
    expect(await state({ advance: { key: 'c', value: 7 } }, ctx())).toMatchObject({ ok: false, error: expect.stringMatching(/cannot be compared/) });
    expect(await state({ advance: { key: 'c', value: { a: 1 } } }, ctx())).toMatchObject({ ok: false, error: expect.stringMatching(/number or text/) });
    expect(await state({ get: { key: 'a' }, delete: { key: 'a' } }, ctx())).toMatchObject({ ok: false, error: expect.stringMatching(/exactly one/) });
    expect(await state({}, ctx())).toMatchObject({ ok: false });
    expect(await state({ get: {} }, ctx())).toMatchObject({ ok: false, error: expect.stringMatching(/key/) });
    expect(await state({ increment: { key: 'n', by: 'x' } }, ctx())).toMatchObject({ ok: false, error: expect.stringMatching(/"by"/) });
    await expect(state({ increment: { key: 'c' } }, ctx())).rejects.toThrow(/not a number/);
    const bare = { ...ctx(), services: { clock: ctx().services.clock } };
    expect(await state({ get: { key: 'a' } }, bare)).toMatchObject({ ok: false, error: expect.stringMatching(/no store/) });
  });

  it('only_new: new records in input order, one markSeen per execution', async () => {
    const { ctx, calls } = setup();
    const page1 = [{ id: 1, v: 'a' }, { id: 2, v: 'b' }, { v: 'no id' }, { id: 1, v: 'repeat' }];
    expect(await onlyNew({ key: 'items' }, ctx(page1))).toEqual({ ok: true, data: [{ id: 1, v: 'a' }, { id: 2, v: 'b' }, { v: 'no id' }] });
    // "1" and 1 are the same id as text; records without an id always pass.
    const page2 = [{ id: 3 }, { id: '1' }, { id: null, v: 'null id' }, { id: 2 }];
    expect(await onlyNew({ key: 'items' }, ctx(page2))).toEqual({ ok: true, data: [{ id: 3 }, { id: null, v: 'null id' }] });
    expect(calls()).toBe(2);
    expect(await onlyNew({ key: 'items' }, ctx({ id: 4 }))).toEqual({ ok: true, data: [{ id: 4 }] });
  });

  it('only_new: nothing new skips unless skip_when_empty is false', async () => {
    const { ctx, calls } = setup();
    await onlyNew({ key: 'k' }, ctx([{ id: 'a' }]));
    expect(await onlyNew({ key: 'k' }, ctx([{ id: 'a' }]))).toEqual({ ok: true, data: [], skip: true });
    expect(await onlyNew({ key: 'k', skip_when_empty: false }, ctx([{ id: 'a' }]))).toEqual({ ok: true, data: [] });
    expect(await onlyNew({ key: 'k' }, ctx([]))).toEqual({ ok: true, data: [], skip: true });
    expect(await onlyNew({ key: 'k' }, ctx(undefined))).toEqual({ ok: true, data: [], skip: true });
    expect(calls()).toBe(3); // no ids, no write
  });

  it('only_new: jq ids, namespaces, ttl and refusals', async () => {
    const { ctx, clock } = setup();
    const recs = [{ user: { id: 7 }, day: '2024-01-01' }, { user: { id: 7 }, day: '2024-01-02' }];
    expect((await onlyNew({ key: 'u', id: '"\\(.user.id)/\\(.day)" # per user and day' }, ctx(recs))).data).toEqual(recs);
    expect((await onlyNew({ key: 'obj', id: '.user' }, ctx(recs))).data).toEqual([recs[0]]); // {"id":7} twice
    expect((await onlyNew({ key: 'obj', id: '.user' }, ctx(recs, 'other-config'))).data).toEqual([recs[0]]);
    await onlyNew({ key: 'shared', namespace: 'team' }, ctx([{ id: 1 }]));
    expect((await onlyNew({ key: 'shared', namespace: 'team' }, ctx([{ id: 1 }], 'other-config'))).skip).toBe(true);
    await onlyNew({ key: 't', ttl: '1d' }, ctx([{ id: 1 }]));
    clock.t += 86_400_000;
    expect((await onlyNew({ key: 't', ttl: '1d' }, ctx([{ id: 1 }]))).data).toEqual([{ id: 1 }]);
    expect(await onlyNew({}, ctx([{ id: 1 }]))).toMatchObject({ ok: false, error: expect.stringMatching(/key/) });
    await expect(onlyNew({ key: 'bad', id: '.[' }, ctx([{ id: 1 }]))).rejects.toThrow();
  });
});
