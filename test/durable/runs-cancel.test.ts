// Cancelling a waiting run on two nodes sharing one Postgres (two servers, each with its own store
// pool and resumer), both paths: racing cancels end it once (one 200, one 409) and tell the error
// handler once; its resume token then answers 410; a cancel racing a resume has exactly one winner.
// The runs list and detail read the same on both nodes; a cancelled run can be re-run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { startResumer } from '../../runtime/durable/resumer.ts';
import type { ErrorHandlers } from '../../runtime/exec/on-error.ts';
import { processEnvironment } from '../../runtime/environment.ts';
import type { Plan } from '../../runtime/plan.ts';
import { buildApp } from '../../runtime/server/app.ts';
import { systemClock, type Services } from '../../runtime/services.ts';
import { PostgresStore } from '../../runtime/store/postgres.ts';
import { planOf } from '../support/plans.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { DATABASE_URL, dropSchema, schemaName, until } from './helpers.ts';

const ADMIN = 'admin-token-of-both-nodes';
const schema = schemaName('runscancel');
const CONFIG = `
on_error:
  interface: alert
interfaces:
  alert:
    method: POST
    actions:
      - name: Notify
        http:
          url: a|var::API|/alert
          method: POST
          body: a|body|
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
          timeout: 1h
      - name: Result
        input: { id: a|body::id|, approved: a|Approval::approved| }
        output: http
`;

let up: Awaited<ReturnType<typeof countingUpstream>>;
const stops: Array<() => Promise<unknown>> = [];
beforeAll(async () => {
  up = await countingUpstream({ '/register': (_q, res) => json(res, 200, { ok: true }), '/alert': (_q, res) => json(res, 200, { ok: true }) });
});
afterAll(async () => { for (const s of stops.reverse()) await s(); await dropSchema(schema); await up.close(); await closeHttpPools(); });

async function node(plans: Plan[], name: string) {
  const store = new PostgresStore({ url: DATABASE_URL, schema });
  await store.init();
  const env = processEnvironment({ SERVICE__VAR__API: up.url });
  const services: Services = { clock: systemClock, store, maxDelayMs: 100 };
  const app = buildApp(plans, { env, services, node: name, adminToken: ADMIN, warn: () => {} });
  const resumer = startResumer({ plans, store, env, services, node: name, pollMs: 50 });
  await app.listen({ port: 0, host: '127.0.0.1' });
  stops.push(async () => { await resumer.stop(); await app.close(); await store.close(); });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const call = async (path: string, method = 'GET', body?: unknown, admin = true) => {
    const res = await fetch(base + path, { method, headers: { ...(admin ? { authorization: `Bearer ${ADMIN}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    return { status: res.status, body: await res.json() as Record<string, any> };
  };
  return { app, call };
}

const handlersDone = (apps: FastifyInstance[]) => Promise.all(apps.flatMap((a) => [...(a as unknown as { errorHandlers: ErrorHandlers }).errorHandlers.running]));
const alerts = (runId: string) => up.hits.filter((h) => h.path === '/alert' && JSON.parse(h.body).run_uuid === runId);
const tokenOf = (id: number) => JSON.parse(up.hits.filter((h) => h.path === '/register' && JSON.parse(h.body).id === id).at(-1)!.body).token as string;

describe.each(['compiled', 'interpreted'] as const)('two nodes on one Postgres (%s)', (mode) => {
  let a: Awaited<ReturnType<typeof node>>;
  let b: Awaited<ReturnType<typeof node>>;
  let nextId = mode === 'compiled' ? 1000 : 2000;
  beforeAll(async () => {
    const plans = [await planOf('cancel.yaml', mode, CONFIG)];
    a = await node(plans, `a-${mode}`);
    b = await node(plans, `b-${mode}`);
  });

  const start = async () => {
    const id = ++nextId;
    const r = await a.call('/approval', 'POST', { id }, false);
    expect(r.status).toBe(202);
    return { id, runId: String(r.body.run_id), token: tokenOf(id) };
  };

  it('racing cancels end the run once, tell on_error once; its token then answers 410; both nodes list and show it', async () => {
    const run = await start();
    for (const n of [a, b]) {
      const listed = await n.call(`/_ap/runs?status=suspended&interface=approval&limit=1000`);
      expect(listed.body.runs.find((r: { id: string }) => r.id === run.runId)).toMatchObject({ status: 'suspended', trigger: 'http', wake: { reason: 'callback', action: 'Approval' } });
      const d = await n.call(`/_ap/runs/${run.runId}`);
      expect(d.body.actions.map((x: { name: string; outcome: string }) => [x.name, x.outcome])).toEqual([['Token', 'succeeded'], ['Ask', 'succeeded'], ['Approval', 'waiting']]);
      // The live token is never shown, not even as the data of the action that made it.
      expect(JSON.stringify(d.body)).not.toContain(run.token);
      expect(d.body.actions[0].data).toBe('[token]');
    }
    const both = await Promise.all([a.call(`/_ap/runs/${run.runId}/cancel`, 'POST'), b.call(`/_ap/runs/${run.runId}/cancel`, 'POST')]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(both.find((r) => r.status === 200)!.body).toMatchObject({ id: run.runId, status: 'cancelled', outcome: { http_code: 499, body: { error: { status: 499, action: 'Approval' } } } });
    expect(both.find((r) => r.status === 409)!.body.error.message).toBe('the run is cancelled: only a suspended run (waiting for a delay, a retry or a callback) can be cancelled');
    await until(() => alerts(run.runId).length > 0);
    await handlersDone([a.app, b.app]);
    expect(alerts(run.runId)).toHaveLength(1);
    expect(JSON.parse(alerts(run.runId)[0]!.body)).toMatchObject({ config: 'cancel', interface: 'approval', http_code: 499, run_uuid: run.runId });
    const resume = await fetch(`http://127.0.0.1:${(b.app.server.address() as { port: number }).port}/_ap/resume/${run.token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"approved":true}' });
    expect(resume.status).toBe(410);
    expect(await resume.json()).toEqual({ error: { status: 410, message: 'this run was cancelled' } });
    for (const n of [a, b]) {
      expect((await n.call(`/_ap/runs/${run.runId}`, 'GET', undefined, false)).body).toMatchObject({ status: 'cancelled', current_action: null, outcome: { http_code: 499 } });
      const listed = await n.call(`/_ap/runs?status=cancelled&limit=1000`);
      expect(listed.body.runs.find((r: { id: string }) => r.id === run.runId)).toMatchObject({ status: 'cancelled', http_code: 499, duration_ms: expect.any(Number) });
      expect((await n.call(`/_ap/runs/${run.runId}`)).body.actions.at(-1)).toEqual({ name: 'Approval', outcome: 'failed', attempts: 0, error: 'cancelled while waiting' });
    }
  });

  it('a cancel racing a resume: exactly one wins, and on_error hears only of cancels', async () => {
    const portB = (b.app.server.address() as { port: number }).port;
    const outcomes: string[] = [];
    for (let i = 0; i < 4; i++) {
      const run = await start();
      const [cancel, resume] = await Promise.all([
        a.call(`/_ap/runs/${run.runId}/cancel`, 'POST'),
        fetch(`http://127.0.0.1:${portB}/_ap/resume/${run.token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"approved":true}' }).then((r) => r.status),
      ]);
      if (cancel.status === 200) {
        expect(resume).toBe(410);
        outcomes.push('cancelled');
        await until(() => alerts(run.runId).length > 0);
      } else {
        expect([cancel.status, resume]).toEqual([409, 202]);
        outcomes.push('resumed');
        const done = await until(async () => { const v = (await b.call(`/_ap/runs/${run.runId}`)).body; return v.status === 'succeeded' ? v : undefined; });
        expect(done.outcome).toEqual({ http_code: 200, body: { id: run.id, approved: true } });
      }
      await handlersDone([a.app, b.app]);
      expect(alerts(run.runId)).toHaveLength(cancel.status === 200 ? 1 : 0);
    }
    expect(outcomes).toHaveLength(4);
  });

  it('re-runs a cancelled run with its request: a new run that waits again', async () => {
    const run = await start();
    expect((await a.call(`/_ap/runs/${run.runId}/cancel`, 'POST')).status).toBe(200);
    const r = await b.call(`/_ap/runs/${run.runId}/rerun`, 'POST');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ rerun_of: run.runId, status: 'suspended', response: { status: 202 } });
    const listed = await a.call(`/_ap/runs?interface=approval&status=suspended&limit=1000`);
    expect(listed.body.runs.map((x: { id: string }) => x.id)).toContain(r.body.run_id);
    expect((await a.call(`/_ap/runs/${r.body.run_id}`)).body.request.body).toEqual({ id: run.id });
    expect((await b.call(`/_ap/runs/${r.body.run_id}/cancel`, 'POST')).status).toBe(200);
  });
});
