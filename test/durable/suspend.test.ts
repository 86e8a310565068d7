// Durable runs on the machine's real Postgres: long delays and callback waits suspend (202 with a
// run id), the resumer continues them when due, a token resumes at most once, a timed-out wait
// fails its action, retry waits past the limit suspend between attempts; without a durable store
// the spec's refusals apply exactly.
import { refusedWithoutStore } from '../../runtime/exec/run.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import type { Plan } from '../../runtime/plan.ts';
import { MemoryStore } from '../../runtime/store/memory.ts';
import { PostgresStore } from '../../runtime/store/postgres.ts';
import { planOf } from '../support/plans.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { DATABASE_URL, dropSchema, schemaName, serveDurable, until } from './helpers.ts';

type Up = Awaited<ReturnType<typeof countingUpstream>>;
let up: Up;
let store: PostgresStore;
const schema = schemaName('suspend');

beforeAll(async () => {
  up = await countingUpstream({
    '/register': (_q, res) => json(res, 200, { ok: true }),
    '/done': (_q, res) => json(res, 200, { done: true }),
    '/flaky/*': (_q, res, n) => (n < 3 ? json(res, 503, { n }) : json(res, 200, { n })),
  });
  store = new PostgresStore({ url: DATABASE_URL, schema });
  await store.init();
});
afterAll(async () => { await store.close(); await dropSchema(schema); await up.close(); await closeHttpPools(); });

const CONFIG = `
interfaces:
  later:
    method: POST
    show_error_detail: true
    actions:
      - name: First
        input: a|body|
      - name: Wait
        delay: 400ms
      - name: Finish
        http:
          url: a|var::API|/done
          method: POST
          body: { id: a|First::id| }
        output: http
  approval:
    method: POST
    actions:
      - name: Token
        input: a|uuid|
      - name: Ask
        http:
          url: a|var::API|/register
          method: POST
          body: { token: a|Token|, id: a|body::id| }
      - name: Approval
        wait_for_callback:
          token: a|Token|
          timeout: a|body::timeout->default("1h")|
      - name: Result
        input: { id: a|body::id|, approved: a|Approval::approved| }
        output: http
      - name: TimedOut
        run_when_failed: [Approval]
        input: { id: a|body::id|, approved: false, reason: timeout }
        output: http
  short:
    actions:
      - name: Nap
        delay: 50ms
      - name: After
        input: awake
        output: http
  polling:
    actions:
      - name: Flaky
        url: a|var::API|/flaky/a|params::k|
        http:
          idempotency: {}
        retry: { attempts: 3, delay: 300, jitter: none }
        output: http
`;

async function post(url: string, body: unknown) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() as Record<string, unknown> };
}

// One plan per path, compiled once and served by each test's own server (compiling is most of the
// CPU these tests use).
const plans = new Map<string, Promise<Plan>>();
const durablePlan = (mode: 'compiled' | 'interpreted') => plans.get(mode) ?? plans.set(mode, planOf('durable.yaml', mode, CONFIG)).get(mode)!;

describe.each(['compiled', 'interpreted'] as const)('on Postgres (%s)', (mode) => {
  it('a long delay suspends with 202, resumes when due, and the status endpoint follows it', async () => {
    const s = await serveDurable([await durablePlan(mode)], store, { API: up.url }, { maxDelayMs: 100 });
    try {
      const r = await post(`${s.url}/later`, { id: 7 });
      expect(r.status).toBe(202);
      expect(r.body).toMatchObject({ status: 'suspended', action: 'Wait', reason: 'delay' });
      const id = String(r.body.run_id);
      const st = await (await fetch(`${s.url}/_ap/runs/${id}`)).json() as Record<string, unknown>;
      expect(st).toMatchObject({ id, interface: 'later', status: 'suspended', current_action: 'Wait', wake: { reason: 'delay' } });
      const done = await until(async () => {
        const v = await (await fetch(`${s.url}/_ap/runs/${id}`)).json() as Record<string, unknown>;
        return v.status === 'succeeded' ? v : undefined;
      });
      expect(done.outcome).toEqual({ http_code: 200, body: { done: true } });
      expect(JSON.parse(up.hits.filter((h) => h.path === '/done').at(-1)!.body)).toEqual({ id: 7 });
    } finally { await s.close(); }
  });

  it('wait_for_callback: resumed once by its token; unknown, repeated and expired tokens are told apart', async () => {
    const s = await serveDurable([await durablePlan(mode)], store, { API: up.url }, { maxDelayMs: 100 });
    try {
      const r = await post(`${s.url}/approval`, { id: 1 });
      expect(r).toMatchObject({ status: 202, body: { status: 'suspended', action: 'Approval', reason: 'callback' } });
      const token = JSON.parse(up.hits.filter((h) => h.path === '/register').at(-1)!.body).token as string;
      expect(token).toMatch(/^[0-9a-f-]{36}$/);
      expect((await post(`${s.url}/_ap/resume/not-a-token`, {})).status).toBe(404);
      // A malformed callback body is a 400 and does not spend the token.
      const bad = await fetch(`${s.url}/_ap/resume/${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"approved": tru' });
      expect(bad.status).toBe(400);
      const ok = await post(`${s.url}/_ap/resume/${token}`, { approved: true });
      expect(ok).toEqual({ status: 202, body: { run_id: r.body.run_id, status: 'resumed' } });
      expect((await post(`${s.url}/_ap/resume/${token}`, { approved: false })).status).toBe(409);
      const done = await until(async () => {
        const v = await (await fetch(`${s.url}/_ap/runs/${String(r.body.run_id)}`)).json() as Record<string, unknown>;
        return v.status === 'succeeded' ? v : undefined;
      });
      expect(done.outcome).toEqual({ http_code: 200, body: { id: 1, approved: true } });

      const late = await post(`${s.url}/approval`, { id: 2, timeout: '200ms' });
      const lateToken = JSON.parse(up.hits.filter((h) => h.path === '/register').at(-1)!.body).token as string;
      const timedOut = await until(async () => {
        const v = await (await fetch(`${s.url}/_ap/runs/${String(late.body.run_id)}`)).json() as Record<string, unknown>;
        return v.status === 'succeeded' ? v : undefined;
      });
      expect(timedOut.outcome).toEqual({ http_code: 200, body: { id: 2, approved: false, reason: 'timeout' } });
      expect((await post(`${s.url}/_ap/resume/${lateToken}`, {})).status).toBe(410);
    } finally { await s.close(); }
  });

  it('retry waits past the limit suspend between attempts; the budget and idempotency key carry over', async () => {
    const s = await serveDurable([await durablePlan(mode)], store, { API: up.url }, { maxDelayMs: 100 });
    try {
      const r = await fetch(`${s.url}/polling?k=${mode}`);
      expect(r.status).toBe(202);
      const id = String(((await r.json()) as Record<string, unknown>).run_id);
      const done = await until(async () => {
        const v = await (await fetch(`${s.url}/_ap/runs/${id}`)).json() as Record<string, unknown>;
        return v.status === 'succeeded' || v.status === 'failed' ? v : undefined;
      });
      const hits = up.hits.filter((h) => h.path === `/flaky/${mode}`);
      expect(hits).toHaveLength(3);
      expect(new Set(hits.map((h) => h.headers['idempotency-key'])).size).toBe(1);
      expect(done).toMatchObject({ status: 'succeeded', outcome: { http_code: 200, body: { n: 3 } } });
    } finally { await s.close(); }
  });
});

describe('without a durable store', () => {
  it.each(['compiled', 'interpreted'] as const)('refuses a run with a long delay or a callback wait before any action (503, issue 30), never shortens them; retry waits stay in process (%s)', async (mode) => {
    const mem = new MemoryStore();
    await mem.init();
    const plan = await planOf('memory.yaml', mode, CONFIG);
    // What serve names at its start: the interfaces whose runs will be refused.
    expect(refusedWithoutStore([plan], 100)).toEqual(['memory.later', 'memory.approval']);
    expect(refusedWithoutStore([plan], 1000)).toEqual(['memory.approval']);
    const s = await serveDurable([plan], mem, { API: up.url }, { maxDelayMs: 100 });
    try {
      // A delay within SERVICE__MAX_DELAY_SECS sleeps in process, store or not.
      const t = Date.now();
      const short = await fetch(`${s.url}/short`);
      expect(short.status).toBe(200);
      expect(await short.text()).toBe('awake');
      expect(Date.now() - t).toBeGreaterThanOrEqual(45);
      const later = await post(`${s.url}/later`, { id: 1 });
      expect(later).toEqual({ status: 503, body: { error: { status: 503, message: 'this interface has a delay of 0.4 s, longer than SERVICE__MAX_DELAY_SECS (0.1 s), which needs a durable store (SERVICE__DATABASE_URL): refused before any action ran' } } });
      expect(up.hits.some((h) => h.path === '/done' && JSON.parse(h.body).id === 1)).toBe(false);
      // Refused before its first action: the approval request is never registered upstream.
      const registered = up.hits.filter((h) => h.path === '/register').length;
      const approval = await post(`${s.url}/approval`, { id: 1 });
      expect(approval).toEqual({ status: 503, body: { error: { status: 503, message: 'this interface waits for a callback, which needs a durable store (SERVICE__DATABASE_URL): refused before any action ran' } } });
      expect(up.hits.filter((h) => h.path === '/register').length).toBe(registered);
      const t0 = Date.now();
      const polling = await fetch(`${s.url}/polling?k=mem-${mode}`);
      expect(polling.status).toBe(200);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(550);
      expect(up.hits.filter((h) => h.path === `/flaky/mem-${mode}`)).toHaveLength(3);
    } finally { await s.close(); }
  });
});
