// state and only_new through the whole stack (config → plan → executor → store), on the embedded
// in-memory store and on Postgres: a polling cursor, a dedupe set with skip propagation, and
// a|state::KEY| reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeInterface } from '../../runtime/exec/run.ts';
import { systemClock } from '../../runtime/services.ts';
import { MemoryStore } from '../../runtime/store/memory.ts';
import { PostgresStore } from '../../runtime/store/postgres.ts';
import type { Store } from '../../runtime/store-types.ts';
import { planOf, testEnv } from '../support/plans.ts';
import { DATABASE_URL, dropSchema, schemaName } from './helpers.ts';

const schema = schemaName('stateact');
const stores: Record<string, Store> = {};
beforeAll(async () => {
  stores.memory = new MemoryStore();
  stores.postgres = new PostgresStore({ url: DATABASE_URL, schema });
  for (const s of Object.values(stores)) await s.init();
});
afterAll(async () => { for (const s of Object.values(stores)) await s.close(); await dropSchema(schema); });

const CONFIG = `
interfaces:
  ingest:
    method: POST
    actions:
      - name: Fresh
        input: a|body::events|
        only_new:
          key: events
          id: .event_id
      - name: Store
        run_when_succeeded: [Fresh]
        input: { stored: a|Fresh| }
      - name: Count
        input: a|Fresh|
        post_transforms:
          - aggregate: { count: true }
      - name: Cursor
        state:
          advance: { key: cursor, value: a|body::cursor| }
      - name: Seen
        state:
          increment: { key: batches }
      - name: Read
        input: { cursor: a|state::cursor|, batches: a|state::batches| }
`;

describe.each(['memory', 'postgres'])('on the %s store', (which) => {
  it.each(['compiled', 'interpreted'] as const)('dedupes, advances a cursor and counts (%s)', async (mode) => {
    const store = stores[which]!;
    const plan = await planOf(`state-${which}-${mode}.yaml`, mode, CONFIG.replace('key: events', `key: events-${mode}`).replace(/key: (cursor|batches)/g, `key: $1-${mode}`).replace(/state::(cursor|batches)/g, `state::$1-${mode}`));
    const i = plan.interfaces[0]!;
    const run = (body: unknown) => executeInterface(plan, i, { method: 'POST', path: '/ingest', params: {}, headers: {}, body, rawBody: '' }, { trigger: 'test', env: testEnv(), services: { clock: systemClock, store } });

    const first = await run({ cursor: 10, events: [{ event_id: 1 }, { event_id: 2 }, { event_id: null, note: 'no id passes' }] });
    expect(first.response.status).toBe(200);
    const b1 = first.response.body as Record<string, any>;
    expect(b1.Fresh).toEqual([{ event_id: 1 }, { event_id: 2 }, { event_id: null, note: 'no id passes' }]);
    expect(b1.Count).toEqual({ count: 3 });
    expect(b1.Store).toEqual({ stored: b1.Fresh });
    expect(b1.Cursor).toEqual({ advanced: true, value: 10 });
    expect(b1.Read).toEqual({ cursor: 10, batches: 1 });

    const second = await run({ cursor: 5, events: [{ event_id: 2 }, { event_id: 3 }] });
    const b2 = second.response.body as Record<string, any>;
    expect(b2.Fresh).toEqual([{ event_id: 3 }]);
    expect(b2.Count).toEqual({ count: 1 });
    expect(b2.Cursor).toEqual({ advanced: false, value: 10 });
    expect(b2.Read).toEqual({ cursor: 10, batches: 2 });

    // Nothing new: Fresh and everything depending on it (run_when_succeeded, or reading it) is skipped.
    const third = await run({ cursor: 12, events: [{ event_id: 1 }, { event_id: 3 }] });
    expect(third.response.status).toBe(200);
    expect(third.state.steps.Fresh!.outcome).toBe('skipped');
    expect(third.state.steps.Store!.outcome).toBe('skipped');
    expect(third.state.steps.Count!.outcome).toBe('skipped');
    expect((third.response.body as Record<string, any>).Read).toEqual({ cursor: 12, batches: 3 });
  });
});
