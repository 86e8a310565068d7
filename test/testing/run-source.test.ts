// --from-run without a server: the run read from the Postgres store itself (its capture), as the runs
// API's detail; an unknown run says how to keep runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../runtime/store/index.ts';
import type { Store } from '../../runtime/store-types.ts';
import { runFromStore, RunSourceError } from '../../runtime/testing/run-source.ts';
import { DATABASE_URL, dropSchema, schemaName } from '../durable/helpers.ts';

const schema = schemaName('fromrun');
const env = { SERVICE__DATABASE_URL: DATABASE_URL, SERVICE__DATABASE_SCHEMA: schema };
let store: Store;
beforeAll(async () => { store = await openStore(env); });
afterAll(async () => { await store.close().catch(() => {}); await dropSchema(schema); });

describe('runFromStore', () => {
  it('reads a captured run: its request, its actions in the order they finished, its answer', async () => {
    await store.saveCapture({
      id: 'run-from-store-1', config: 'shop', iface: 'order', at: '2026-12-07T00:00:01.000Z', status: 'succeeded', replayable: true,
      state: {
        id: 'run-from-store-1', config: 'shop', iface: 'order', trigger: 'http', startedAt: '2026-12-07T00:00:00.000Z', cursor: 2, status: 'succeeded',
        request: { method: 'POST', path: '/order', params: {}, headers: { authorization: '[redacted]' }, body: { id: 7 }, rawBody: '{"id":7}' },
        steps: { Customer: { outcome: 'succeeded', attempts: 1, status: 200, data: { name: 'Ada' } }, Reply: { outcome: 'succeeded', attempts: 1, data: { name: 'Ada' } } },
        seq: { order: ['Customer', 'Reply'], unhandled: [], failures: {} },
        response: { status: 200, headers: {}, body: { name: 'Ada' } },
      },
    });
    const d = await runFromStore(env, 'run-from-store-1');
    expect(d).toMatchObject({
      id: 'run-from-store-1', config: 'shop', interface: 'order', status: 'succeeded', outcome: { http_code: 200, body: { name: 'Ada' } },
      request: { method: 'POST', headers: { authorization: '[redacted]' }, body: { id: 7 } },
      actions: [{ name: 'Customer', outcome: 'succeeded', http_status: 200, data: { name: 'Ada' } }, { name: 'Reply', outcome: 'succeeded' }],
    });
  });

  it('an unknown run: how to keep runs (capture)', async () => {
    await expect(runFromStore(env, 'no-such-run')).rejects.toThrow(RunSourceError);
    await expect(runFromStore(env, 'no-such-run')).rejects.toThrow(/Set `capture: all` on the interface/);
  });
});
