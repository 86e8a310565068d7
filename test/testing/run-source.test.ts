// --from-run without a server: the run read from the Postgres store itself (its capture), as the runs
// API's detail (a failed action's transport class validated: the record is data); an unknown run
// says how to keep runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../runtime/store/index.ts';
import type { Store } from '../../runtime/store-types.ts';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runFromServer, runFromStore, RunSourceError } from '../../runtime/testing/run-source.ts';
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

  it('a failed action\'s transport class, as the runtime kept it; a stored value that is no class, or none at all, shows none', async () => {
    const state = (id: string, failures: unknown) => ({
      id, config: 'shop', iface: 'order', trigger: 'http' as const, startedAt: '2026-12-07T00:00:00.000Z', cursor: 3, status: 'failed' as const,
      request: { method: 'POST', path: '/order', params: {}, headers: {}, body: null, rawBody: '' },
      steps: {
        Stock: { outcome: 'failed' as const, attempts: 3, error: 'lookup timed out', data: null },
        Quote: { outcome: 'failed' as const, attempts: 1, error: 'broke off', status: 200, data: null },
        constructor: { outcome: 'failed' as const, attempts: 1, error: 'no', data: null },
      },
      seq: { order: ['Stock', 'Quote', 'constructor'], unhandled: ['Stock'], ...(failures === undefined ? {} : { failures }) },
      response: { status: 504, headers: {}, body: { error: { status: 504 } } },
    });
    const save = (id: string, failures: unknown) => store.saveCapture({ id, config: 'shop', iface: 'order', at: '2026-12-07T00:00:01.000Z', status: 'failed', replayable: true, state: state(id, failures) as never });
    await save('run-transport-1', { Stock: { kind: 'transport', cls: 'timeout' }, Quote: { kind: 'transport', cls: 'other' }, constructor: { kind: 'other' } });
    const d = await runFromStore(env, 'run-transport-1');
    expect(d.actions).toEqual([
      { name: 'Stock', outcome: 'failed', attempts: 3, error: 'lookup timed out', transport: 'timeout', data: null },
      { name: 'Quote', outcome: 'failed', attempts: 1, http_status: 200, error: 'broke off', transport: 'other', data: null },
      { name: 'constructor', outcome: 'failed', attempts: 1, error: 'no', data: null },
    ]);
    // Data, not trusted: a class the runtime does not have, a kind that is not transport, a string.
    await save('run-transport-2', { Stock: { kind: 'transport', cls: '<script>' }, Quote: { kind: 'status', cls: 'timeout' }, constructor: 'timeout' });
    // A record from before `seq.failures`, and one whose failures is no mapping.
    await save('run-transport-3', undefined);
    await save('run-transport-4', 'timeout');
    for (const id of ['run-transport-2', 'run-transport-3', 'run-transport-4']) {
      for (const a of (await runFromStore(env, id)).actions) expect(a, id).not.toHaveProperty('transport');
    }
  });

  it('a failed action\'s refusal status (and refused_in: settings), as the runtime kept it; a stored status it never refuses with, or a tampered entry, shows none', async () => {
    const state = (id: string, failures: unknown) => ({
      id, config: 'shop', iface: 'order', trigger: 'http' as const, startedAt: '2026-12-07T00:00:00.000Z', cursor: 3, status: 'failed' as const,
      request: { method: 'POST', path: '/order', params: {}, headers: {}, body: null, rawBody: '' },
      steps: {
        Item: { outcome: 'failed' as const, attempts: 1, error: 'a|body::sku| is "..": refused', data: null },
        Notify: { outcome: 'failed' as const, attempts: 1, error: 'outbound call refused: denied', data: null },
        ['__proto__']: { outcome: 'failed' as const, attempts: 1, error: 'no', data: null },
      },
      seq: { order: ['Item', 'Notify', '__proto__'], unhandled: ['Item'], failures },
      response: { status: 400, headers: {}, body: { error: { status: 400 } } },
    });
    const save = (id: string, failures: unknown) => store.saveCapture({ id, config: 'shop', iface: 'order', at: '2026-12-07T00:00:01.000Z', status: 'failed', replayable: true, state: JSON.parse(JSON.stringify(state(id, failures))) as never });
    await save('run-refused-1', { Item: { kind: 'refused', status: 400, settings: true }, Notify: { kind: 'refused', status: 403 } });
    expect((await runFromStore(env, 'run-refused-1')).actions).toEqual([
      { name: 'Item', outcome: 'failed', attempts: 1, error: 'a|body::sku| is "..": refused', refused: 400, refused_in: 'settings', data: null },
      { name: 'Notify', outcome: 'failed', attempts: 1, error: 'outbound call refused: denied', refused: 403, data: null },
      { name: '__proto__', outcome: 'failed', attempts: 1, error: 'no', data: null },
    ]);
    // Data, not trusted: a status the runtime never refuses with, a string, a kind that is not
    // refused, settings that is not true (shown without it); an own entry named __proto__ is the action's.
    await save('run-refused-2', { Item: { kind: 'refused', status: 200, settings: true }, Notify: { kind: 'status', status: 403 } });
    await save('run-refused-3', { Item: { kind: 'refused', status: '400' }, Notify: { kind: 'refused', status: 403, settings: 'yes' }, ['__proto__']: { kind: 'refused', status: 400 } });
    for (const a of (await runFromStore(env, 'run-refused-2')).actions) expect(a, 'run-refused-2').not.toHaveProperty('refused');
    const three = (await runFromStore(env, 'run-refused-3')).actions;
    expect(three[0]).not.toHaveProperty('refused');
    expect(three[1]).toMatchObject({ name: 'Notify', refused: 403 });
    expect(three[1]).not.toHaveProperty('refused_in');
    // An action named __proto__ reads its own entry (a JSON record's own key), never the prototype's (run-refused-1).
    expect(three[2]).toEqual({ name: '__proto__', outcome: 'failed', attempts: 1, error: 'no', refused: 400, data: null });
  });

  it('an unknown run: how to keep runs (capture)', async () => {
    await expect(runFromStore(env, 'no-such-run')).rejects.toThrow(RunSourceError);
    await expect(runFromStore(env, 'no-such-run')).rejects.toThrow(/Set `capture: all` on the interface/);
  });
});

/** A server answering every request with `answer`, keeping the headers of what it was sent. */
async function listening(answer: (res: import('node:http').ServerResponse) => void): Promise<{ url: string; seen: IncomingHttpHeaders[]; server: Server }> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => { seen.push(req.headers); answer(res); });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

describe('runFromServer', () => {
  it('a redirect is not followed: the admin token reaches --server only', async () => {
    const other = await listening((res) => res.end('{}'));
    const server = await listening((res) => { res.writeHead(307, { location: `${other.url}/_ap/runs?limit=1` }); res.end(); });
    try {
      const got = runFromServer(server.url, 'run-1', 'admin-token-for-redirect');
      await expect(got).rejects.toThrow(RunSourceError);
      await expect(got).rejects.toThrow(/answered 307 \(a redirect to http:\/\/127\.0\.0\.1:\d+\/_ap\/runs\?limit=1\): not followed/);
      expect(server.seen[0]?.authorization).toBe('Bearer admin-token-for-redirect');
      expect(other.seen).toEqual([]);
    } finally {
      server.server.close(); other.server.close();
    }
  });

  it('JSON that is not a run\'s detail is refused, saying what it lacks, never a TypeError from the converter', async () => {
    const good = {
      id: 'r-1', config: 'shop', interface: 'order', status: 'failed', started_at: '2026-12-07T00:00:00.000Z', trigger: 'http',
      request: { method: 'POST', path: '/order', params: {}, headers: {}, body: null }, actions: [{ name: 'A', outcome: 'failed', attempts: 1 }],
      outcome: { http_code: 500, body: null },
    };
    const cases: Array<[unknown, RegExp]> = [
      [{ ...good, request: { method: 'POST' } }, /its request is not \{ method, params, headers, body \}/],
      [{ ...good, actions: [null] }, /its action 1 is not \{ name, outcome, \.\.\. \}/],
      [{ ...good, actions: [{ name: 'A', outcome: 'failed' }, { name: { toString: 'B' }, outcome: 'failed' }] }, /its action 2 is not/],
      [{ ...good, id: 7 }, /its id is not a string/],
      [{ ...good, id: 'r-2\u001b[2J' }, /it is of run "r-2\\u001b\[2J", not "r-1"/],
      [{ ...good, started_at: '2026-12-07 \u001b[2J' }, /its started_at is not an ISO time/],
      [{ ...good, outcome: { http_code: 99999 } }, /its outcome is not \{ http_code, body \}/],
    ];
    let answer: unknown = good;
    const server = await listening((res) => res.end(JSON.stringify(answer)));
    try {
      await expect(runFromServer(server.url, 'r-1', 'admin')).resolves.toEqual(good);
      for (const [body, why] of cases) {
        answer = body;
        const got = runFromServer(server.url, 'r-1', 'admin');
        await expect(got).rejects.toThrow(RunSourceError);
        await expect(got).rejects.toThrow(why);
      }
    } finally {
      server.server.close();
    }
  });
});
