// A held run that cannot be resumed ends with an answer: a crash while resuming (here the run's
// interface is gone from the config of the node that claimed it) or a config that node does not
// serve stores a 500 naming the interface and action, redacted like every stored run, and read by
// GET /_ap/runs/<id>. A node that lost the run's lease meanwhile records nothing (the holder does).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { startResumer } from '../../runtime/durable/resumer.ts';
import { processEnvironment } from '../../runtime/environment.ts';
import type { Plan } from '../../runtime/plan.ts';
import { systemClock } from '../../runtime/services.ts';
import type { Store } from '../../runtime/store-types.ts';
import { PostgresStore } from '../../runtime/store/postgres.ts';
import { planOf } from '../support/plans.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { DATABASE_URL, dropSchema, schemaName, serveDurable, until } from './helpers.ts';

type Up = Awaited<ReturnType<typeof countingUpstream>>;
let up: Up;
let store: PostgresStore;
const schema = schemaName('resumefail');
const SECRET = 'tok-9f3b2c71e0d4a8';

beforeAll(async () => {
  up = await countingUpstream({ '/done': (_q, res) => json(res, 200, { ok: true }) });
  store = new PostgresStore({ url: DATABASE_URL, schema, leaseMs: 2000 });
  await store.init();
});
afterAll(async () => { await store.close(); await dropSchema(schema); await up.close(); await closeHttpPools(); });

const config = (name: string) => `
interfaces:
  ${name}:
    method: POST
    actions:
      - name: Wait
        delay: 100ms
      - name: Finish
        http: { url: a|var::API|/done, method: POST }
        output: http
`;

interface RunView { status: string; outcome?: { http_code: number; body: { error: { status: number; message: string; action?: string } } } }

/** Node A takes the request (its own resumer idle: another node resumes); returns the run's id and how to read it. */
async function suspended(plan: Plan) {
  const a = await serveDurable([plan], store, { API: up.url, TOKEN: SECRET }, { maxDelayMs: 50, pollMs: 600_000 });
  const res = await fetch(`${a.url}/later`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  expect(res.status).toBe(202);
  const { run_id: id } = (await res.json()) as { run_id: string };
  const view = async () => (await (await fetch(`${a.url}/_ap/runs/${id}`)).json()) as RunView;
  return { a, id, view };
}

/** Node B's resumer, serving `plans` on the same store. */
function nodeB(plans: Plan[], s: Store = store) {
  const env = processEnvironment({ SERVICE__VAR__API: up.url, SERVICE__VAR__TOKEN: SECRET });
  const logs: string[] = [];
  const r = startResumer({ plans, store: s, env, services: { clock: systemClock, store: s }, node: 'node-b', pollMs: 50, log: (m) => logs.push(m) });
  return { r, logs };
}

describe('a run that cannot be resumed', () => {
  it('crashing while resuming: failed with a 500 naming the interface and action', async () => {
    const { a, id, view } = await suspended(await planOf('jobs.yaml', 'interpreted', config('later')));
    // Node B's config lost the interface (a deploy under way): resuming the run throws.
    const b = nodeB([await planOf('jobs.yaml', 'interpreted', config('renamed'))]);
    try {
      const run = await until(async () => { const v = await view(); return v.status === 'failed' ? v : undefined; });
      expect(run.outcome).toEqual({
        http_code: 500,
        body: { error: { status: 500, action: 'Wait', message: `the run failed while resuming (interface "later" of config "jobs", action "Wait"): run ${id}: interface later is not in config jobs` } },
      });
      expect(b.logs.some((m) => m.includes('resume failed'))).toBe(true);
      expect(up.count('/done')).toBe(0);
    } finally { await b.r.stop(); await a.close(); }
  }, 20_000);

  it('a config the claiming node does not serve: failed with a 500 saying so', async () => {
    const { a, view } = await suspended(await planOf('jobs.yaml', 'interpreted', config('later')));
    const b = nodeB([]);
    try {
      const run = await until(async () => { const v = await view(); return v.status === 'failed' ? v : undefined; });
      expect(run.outcome?.http_code).toBe(500);
      expect(run.outcome?.body.error).toEqual({ status: 500, action: 'Wait', message: 'the run failed while resuming (interface "later" of config "jobs", action "Wait"): config "jobs" is not served by the node that claimed it' });
    } finally { await b.r.stop(); await a.close(); }
  }, 20_000);

  it('the stored answer is redacted: a secret quoted by the failure is not kept', async () => {
    const plan = await planOf('jobs.yaml', 'interpreted', config('later'));
    const { a, id, view } = await suspended(plan);
    // The store refuses the first checkpoint with a message quoting a secret (as a driver error may).
    let refused = false;
    const quoting = Object.create(store) as Store;
    quoting.checkpoint = async (st, node) => {
      if (!refused) { refused = true; throw new Error(`checkpoint refused for token ${SECRET}`); }
      return store.checkpoint(st, node);
    };
    const b = nodeB([plan], quoting);
    try {
      const run = await until(async () => { const v = await view(); return v.status === 'failed' ? v : undefined; });
      expect(run.outcome?.body.error.message).toBe('the run failed while resuming (interface "later" of config "jobs", action "Finish"): checkpoint refused for token [redacted]');
      const { rows } = await store.pool.query(`SELECT state::text AS t FROM "${schema}".runs WHERE id = $1`, [id]);
      expect(rows[0].t).not.toContain(SECRET);
    } finally { await b.r.stop(); await a.close(); }
  }, 20_000);

  it('a node that lost the lease meanwhile records nothing: the holder does', async () => {
    const { a, id, view } = await suspended(await planOf('jobs.yaml', 'interpreted', config('later')));
    // Right after node B claims the run, node C takes it over (B stalled past its lease).
    const stalled = Object.create(store) as Store;
    stalled.claimDue = async (...args) => {
      const due = await store.claimDue(...args);
      if (due.length) await store.pool.query(`UPDATE "${schema}".runs SET claimed_by = 'node-c' WHERE id = ANY($1)`, [due.map((r) => r.id)]);
      return due;
    };
    const b = nodeB([await planOf('jobs.yaml', 'interpreted', config('renamed'))], stalled);
    try {
      await until(() => b.logs.find((m) => m.includes('resume failed')));
      await new Promise((r) => setTimeout(r, 200));
      const { rows } = await store.pool.query(`SELECT status, claimed_by FROM "${schema}".runs WHERE id = $1`, [id]);
      expect(rows[0]).toEqual({ status: 'running', claimed_by: 'node-c' });
      const v = await view();
      expect(v.outcome).toBeUndefined();
    } finally { await b.r.stop(); await a.close(); }
  }, 20_000);
});
