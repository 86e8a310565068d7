// GET /_ap/runs/<id> of runs that finished over HTTP (memory store): a failed run's record (the run
// state as it ended: its request and each action's record) is written out at finish and redacted when read, so
// the outcome shows the body the client got, secrets redacted; a run that answered with a success is
// not kept (its caller holds all of it; capture keeps such runs when asked).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { MemoryStore } from '../../runtime/store/memory.ts';
import { finishedRecord } from '../../runtime/server/run-record.ts';
import { redactorOf } from '../../runtime/values/redact.ts';
import type { RunState } from '../../runtime/run-state.ts';
import { planOf } from '../support/plans.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { secretEnv, serveWith } from './helpers.ts';

const SECRET = 'r3cord-s3cret-value';
const CONFIG = `
interfaces:
  object:
    actions:
      - name: Up
        url: a|var::API|/doc
        output: http
  failing:
    response: { http_code_on_error: 502 }
    actions:
      - name: Up
        url: a|var::API|/doc
        assert: { tests: [{ value: "a|body::n|", is_equal_to: 2 }] }
        output: http
`;

let up: Awaited<ReturnType<typeof countingUpstream>>;
const closers: Array<() => Promise<unknown>> = [];
beforeAll(async () => { up = await countingUpstream({ '/doc': (_q, res) => json(res, 200, { n: 1.5, echoed: SECRET }) }); });
afterAll(async () => { for (const c of closers) await c(); await up.close(); await closeHttpPools(); });

describe.each(['compiled', 'interpreted'] as const)('%s', (mode) => {
  it('a failed run reads back with its outcome body, redacted', async () => {
    const env = secretEnv({ API: up.url }, { TOKEN: SECRET });
    const { app, url } = await serveWith([await planOf('records.yaml', mode, CONFIG)], env, { store: new MemoryStore() });
    closers.push(() => app.close());
    const res = await fetch(`${url}/failing`);
    expect(res.status).toBe(502);
    const answered = await res.json();
    const run = await (await fetch(`${url}/_ap/runs/${res.headers.get('x-run-id')}`)).text();
    expect(run).not.toContain(SECRET);
    expect(JSON.parse(run)).toEqual({
      id: res.headers.get('x-run-id'), config: 'records', interface: 'failing', status: 'failed', started_at: expect.any(String), current_action: null,
      outcome: { http_code: 502, body: answered },
    });
  });

  it('a run that answered with a success is not kept: 404, saying why', async () => {
    const store = new MemoryStore();
    const { app, url } = await serveWith([await planOf('records.yaml', mode, CONFIG)], secretEnv({ API: up.url }, { TOKEN: SECRET }), { store });
    closers.push(() => app.close());
    const res = await fetch(`${url}/object`);
    expect(res.status).toBe(200);
    expect(await store.loadRun(res.headers.get('x-run-id')!)).toBeUndefined();
    const run = await fetch(`${url}/_ap/runs/${res.headers.get('x-run-id')}`);
    expect(run.status).toBe(404);
    expect((await run.json() as { error: { message: string } }).error.message).toContain('runs that answered their caller with a success are not');
  });

  it('the record keeps the request (credential headers masked) and each action\'s record, redacted; not the response headers', async () => {
    const env = secretEnv({ API: up.url }, { TOKEN: SECRET });
    const store = new MemoryStore();
    const { app, url } = await serveWith([await planOf('records.yaml', mode, CONFIG)], env, { store });
    closers.push(() => app.close());
    const res = await fetch(`${url}/failing?q=1`, { headers: { 'x-trace': 'trace-value', authorization: 'Bearer caller-credential' } });
    const answered = await res.json();
    const run = (await store.loadRun(res.headers.get('x-run-id')!))!;
    expect(run).toMatchObject({ config: 'records', iface: 'failing', trigger: 'http', status: 'failed', cursor: 1 });
    expect(run.request).toMatchObject({ method: 'GET', path: '/failing', body: null, rawBody: '' });
    expect(run.request.headers).toMatchObject({ 'x-trace': 'trace-value', authorization: '[redacted]' });
    expect(run.steps.Up).toMatchObject({ outcome: 'succeeded', assert: { ok: false }, attempts: 1, status: 200, data: { n: 1.5, echoed: '[redacted]' }, ms: expect.any(Number) });
    expect(run.seq.order).toEqual(['Up']);
    expect(run.response).toEqual({ status: 502, headers: {}, body: answered });
    expect(JSON.stringify(run)).not.toContain(SECRET);
    expect(JSON.stringify(run)).not.toContain('caller-credential');
  });
});

describe('finishedRecord', () => {
  const state = { id: 'r', config: 'c', iface: 'i', trigger: 'http', startedAt: '2026-11-27T00:00:00.000Z', request: { method: 'GET', path: '/p', params: { q: '1' }, headers: { authorization: 'x' }, body: { a: 1 }, rawBody: '{"a":1}' }, steps: {}, seq: { order: ['A'], unhandled: [], failures: {} }, cursor: 1, status: 'succeeded' } as RunState;
  const redact = redactorOf(secretEnv({}, { TOKEN: SECRET }));
  it('splices in the body the reply made, and leaves out a body that is absent', () => {
    const text = (body: unknown, bodyJson?: string) => finishedRecord({ state, response: { status: 200, headers: { a: 'b' }, body }, ...(bodyJson ? { bodyJson } : {}) }, redact).json.parts.join('');
    expect(JSON.parse(text({ x: [1] }, '{"x":[1]}')).response).toEqual({ status: 200, headers: {}, body: { x: [1] } });
    expect(JSON.parse(text({ x: 'y' })).response).toEqual({ status: 200, headers: {}, body: { x: 'y' } });
    expect(JSON.parse(text(null)).response).toEqual({ status: 200, headers: {}, body: null });
    expect(JSON.parse(text(undefined)).response).toEqual({ status: 200, headers: {} });
    expect(JSON.parse(text(undefined)).request).toEqual(state.request);
  });
});
