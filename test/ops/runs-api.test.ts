// The runs API over HTTP on the memory store, both paths: the list (filters, cursor pages), a
// failed run's detail (each action's attempts, duration, outcome and data, secrets redacted), a
// re-run with the recorded request, and what a hostile or unauthenticated caller gets (401, 404,
// 400: never a 500). Cancel needs a run that waits, so a durable store: test/durable/runs-cancel.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { buildApp } from '../../runtime/server/app.ts';
import { systemClock } from '../../runtime/services.ts';
import { MemoryStore } from '../../runtime/store/memory.ts';
import { planOf } from '../support/plans.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { secretEnv } from './helpers.ts';

const SECRET = 'runs-api-s3cret-value';
const ADMIN = 'admin-token-for-the-runs-api';
const AUTH = { authorization: `Bearer ${ADMIN}` };
const CONFIG = `
interfaces:
  failing:
    method: POST
    response: { http_code_on_error: 502 }
    actions:
      - name: Prepare
        input: { token: a|secret::TOKEN|, got: a|body| }
      - name: Up
        url: a|var::API|/fail
        retry: { attempts: 2, delay: 5, jitter: none }
        output: http
  fine:
    actions:
      - name: Hello
        input: hi
        output: http
  guarded:
    actions:
      - name: Send
        url: a|var::API|/fail
        replayable: false
        output: http
`;

let up: Awaited<ReturnType<typeof countingUpstream>>;
const closers: Array<() => Promise<unknown>> = [];
beforeAll(async () => { up = await countingUpstream({ '/fail': (_q, res) => json(res, 503, { down: true, echoed: SECRET }) }); });
afterAll(async () => { for (const c of closers) await c(); await up.close(); await closeHttpPools(); });

async function serve(mode: 'compiled' | 'interpreted', adminToken: string | null = ADMIN) {
  const env = secretEnv({ API: up.url }, { TOKEN: SECRET });
  const app = buildApp([await planOf('runsapi.yaml', mode, CONFIG)], { env, services: { clock: systemClock, store: new MemoryStore() }, warn: () => {}, ...(adminToken ? { adminToken } : {}) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  closers.push(() => app.close());
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const call = async (path: string, o: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) => {
    const res = await fetch(base + path, { method: o.method ?? 'GET', headers: { ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}), ...o.headers }, ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}) });
    const text = await res.text();
    const body = res.headers.get('content-type')?.startsWith('application/json') && text ? JSON.parse(text) as Record<string, any> : undefined;
    return { status: res.status, text, body, runId: res.headers.get('x-run-id') };
  };
  return { call, admin: (path: string, o: { method?: string; body?: unknown } = {}) => call(path, { ...o, headers: AUTH }) };
}

describe.each(['compiled', 'interpreted'] as const)('%s', (mode) => {
  let s: Awaited<ReturnType<typeof serve>>;
  let failedId: string;
  beforeAll(async () => {
    s = await serve(mode);
    const r = await s.call('/failing', { method: 'POST', body: { order: 7 } });
    expect(r.status).toBe(502);
    failedId = r.runId!;
  });

  it('lists the failed run (a success answered at once is not kept); filters narrow it', async () => {
    expect((await s.call('/fine')).status).toBe(200);
    const all = await s.admin('/_ap/runs');
    expect(all.status).toBe(200);
    expect(all.body!.next_cursor).toBeNull();
    expect(all.body!.runs).toEqual([{
      id: failedId, config: 'runsapi', interface: 'failing', trigger: 'http', status: 'failed', http_code: 502,
      started_at: expect.any(String), updated_at: expect.any(String), finished_at: expect.any(String), duration_ms: expect.any(Number),
    }]);
    for (const q of ['interface=failing', 'config=runsapi', 'status=failed', 'trigger=http', 'since=2020-01-01', `until=${new Date(Date.now() + 60_000).toISOString()}`, 'status=failed&interface=failing&limit=5']) {
      expect((await s.admin(`/_ap/runs?${q}`)).body!.runs.map((r: { id: string }) => r.id), q).toEqual([failedId]);
    }
    for (const q of ['interface=fine', 'config=other', 'status=suspended', 'trigger=schedule', 'since=2100-01-01', 'until=2020-01-01']) {
      expect((await s.admin(`/_ap/runs?${q}`)).body!.runs, q).toEqual([]);
    }
  });

  it('the admin detail: the request and each action with attempts, duration, outcome and redacted data; the status view unchanged', async () => {
    const d = await s.admin(`/_ap/runs/${failedId}`);
    expect(d.status).toBe(200);
    expect(d.text).not.toContain(SECRET);
    expect(d.body).toMatchObject({
      id: failedId, config: 'runsapi', interface: 'failing', status: 'failed', trigger: 'http', current_action: null,
      outcome: { http_code: 502 }, request: { method: 'POST', path: '/failing', body: { order: 7 } }, rerun: { possible: true },
    });
    expect(d.body!.actions).toEqual([
      { name: 'Prepare', outcome: 'succeeded', attempts: 1, duration_ms: expect.any(Number), data: { token: '[redacted]', got: { order: 7 } } },
      { name: 'Up', outcome: 'failed', attempts: 2, duration_ms: expect.any(Number), http_status: 503, error: expect.any(String), data: { down: true, echoed: '[redacted]' } },
    ]);
    // Without the admin token: what the route answered before the runs API, field for field.
    const plain = await s.call(`/_ap/runs/${failedId}`);
    expect(Object.keys(plain.body!)).toEqual(['id', 'config', 'interface', 'status', 'started_at', 'current_action', 'outcome']);
    expect(plain.text).not.toContain(SECRET);
  });

  it('re-runs a recorded run with its request: a new run id, listed; an inspect-only run is refused', async () => {
    const before = up.hits.filter((h) => h.path === '/fail').length;
    const r = await s.admin(`/_ap/runs/${failedId}/rerun`, { method: 'POST' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ rerun_of: failedId, status: 'failed', response: { status: 502 } });
    expect(r.body!.run_id).not.toBe(failedId);
    expect(r.runId).toBe(r.body!.run_id);
    expect(up.hits.filter((h) => h.path === '/fail').length).toBe(before + 2);
    const again = await s.admin(`/_ap/runs/${r.body!.run_id}`);
    expect(again.body).toMatchObject({ request: { body: { order: 7 } }, status: 'failed' });
    expect((await s.admin('/_ap/runs?interface=failing')).body!.runs.map((x: { id: string }) => x.id)).toEqual([r.body!.run_id, failedId]);

    const g = await s.call('/guarded');
    expect(g.status).toBe(502);
    expect((await s.admin(`/_ap/runs/${g.runId}`)).body!.rerun).toEqual({ possible: false, reason: 'action "Send" is replayable: false' });
    expect(await s.admin(`/_ap/runs/${g.runId}/rerun`, { method: 'POST' })).toMatchObject({ status: 409, body: { error: { message: 'this run cannot be re-run: action "Send" is replayable: false' } } });
  });

  it('pages with an opaque cursor, newest first, until next_cursor is null', async () => {
    for (let i = 0; i < 4; i++) await s.call('/failing', { method: 'POST', body: { i } });
    const all = (await s.admin('/_ap/runs?limit=1000')).body!.runs.map((r: { id: string }) => r.id) as string[];
    expect(all.length).toBeGreaterThanOrEqual(6);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await s.admin(`/_ap/runs?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.body!.runs.length).toBeLessThanOrEqual(2);
      seen.push(...page.body!.runs.map((r: { id: string }) => r.id));
      cursor = page.body!.next_cursor;
    } while (cursor);
    expect(seen).toEqual(all);
    const starts = (await s.admin('/_ap/runs?limit=1000')).body!.runs.map((r: { started_at: string }) => r.started_at) as string[];
    expect([...starts].sort().reverse()).toEqual(starts);
  });

  it('refuses without the admin token (401), an unknown run (404) and hostile values (400), never a 500', async () => {
    for (const [method, path] of [['GET', '/_ap/runs'], ['POST', `/_ap/runs/${failedId}/cancel`], ['POST', `/_ap/runs/${failedId}/rerun`]] as const) {
      expect((await s.call(path, { method })).status, path).toBe(401);
      expect((await s.call(path, { method, headers: { authorization: 'Bearer wrong' } })).status, path).toBe(401);
    }
    for (const path of ['/_ap/runs/no-such-run', '/_ap/runs/no-such-run/rerun', '/_ap/runs/no-such-run/cancel']) {
      expect((await s.admin(path, { method: path.endsWith('run') ? 'GET' : 'POST' })).status, path).toBe(404);
    }
    // A finished run is not waiting: nothing to cancel.
    expect(await s.admin(`/_ap/runs/${failedId}/cancel`, { method: 'POST' })).toMatchObject({ status: 409, body: { error: { message: 'the run is failed: only a suspended run (waiting for a delay, a retry or a callback) can be cancelled' } } });
    const long = 'x'.repeat(300);
    const forged = Buffer.from(JSON.stringify(['not a date', 'x'])).toString('base64url');
    const nul = Buffer.from(JSON.stringify(['2026-01-01T00:00:00.000Z', 'a\u0000b'])).toString('base64url');
    const bad = [
      '/_ap/runs/a%00b', `/_ap/runs/${long}`, '/_ap/runs/a%00b/rerun',
      '/_ap/runs?cursor=!!!', `/_ap/runs?cursor=${forged}`, `/_ap/runs?cursor=${nul}`, '/_ap/runs?cursor=e30', `/_ap/runs?cursor=${'A'.repeat(5000)}`,
      '/_ap/runs?limit=0', '/_ap/runs?limit=1001', '/_ap/runs?limit=abc', '/_ap/runs?limit=1e3', '/_ap/runs?status=done', '/_ap/runs?trigger=email',
      '/_ap/runs?since=yesterday', '/_ap/runs?until=2026-13-45', '/_ap/runs?interface=a%00b', '/_ap/runs?status=failed&status=succeeded', '/_ap/runs?sort=asc',
      `/_ap/runs?config=${long}`,
    ];
    for (const path of bad) {
      const r = await s.admin(path, { method: path.endsWith('/rerun') ? 'POST' : 'GET' });
      // fastify refuses a path parameter over 100 characters itself: 414.
      expect(r.status, path).toBe(path === `/_ap/runs/${long}` ? 414 : 400);
      expect(r.body!.error.message, path).toEqual(expect.any(String));
    }
    expect((await s.admin('/_ap/runs/a%00b/cancel', { method: 'POST' })).status).toBe(400);
  });
});

it('without SERVICE__ADMIN_TOKEN the management routes are not there (404); a run\'s status still is', async () => {
  const s = await serve('interpreted', null);
  const r = await s.call('/failing', { method: 'POST', body: {} });
  expect((await s.call('/_ap/runs', { headers: AUTH })).status).toBe(404);
  expect((await s.call(`/_ap/runs/${r.runId}/rerun`, { method: 'POST', headers: AUTH })).status).toBe(404);
  const plain = await s.call(`/_ap/runs/${r.runId}`, { headers: AUTH });
  expect(plain.status).toBe(200);
  expect(plain.body!.actions).toBeUndefined();
});
