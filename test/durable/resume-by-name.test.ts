// A suspended run resumes on the plan served now (after a reload or a deploy) by interface and action
// name, not by position: an action added before the one it waits in does not run and the rest run as
// now written; an action it waits in that was removed or renamed ends the run failed, saying so.
// Both paths.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { startResumer } from '../../runtime/durable/resumer.ts';
import { processEnvironment } from '../../runtime/environment.ts';
import type { Plan } from '../../runtime/plan.ts';
import { systemClock } from '../../runtime/services.ts';
import { PostgresStore } from '../../runtime/store/postgres.ts';
import { planOf } from '../support/plans.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { DATABASE_URL, dropSchema, schemaName, serveDurable, until } from './helpers.ts';

let up: Awaited<ReturnType<typeof countingUpstream>>;
let store: PostgresStore;
const schema = schemaName('byname');

beforeAll(async () => {
  up = await countingUpstream({ '/*': (_q, res) => json(res, 200, { ok: true }) });
  store = new PostgresStore({ url: DATABASE_URL, schema, leaseMs: 2000 });
  await store.init();
});
afterAll(async () => { await store.close(); await dropSchema(schema); await up.close(); await closeHttpPools(); });

const call = (name: string, path: string) => `      - name: ${name}\n        http: { url: a|var::API|${path}, method: POST }\n`;
const config = (before: string, wait: string, after: string) => `
interfaces:
  later:
    method: POST
    actions:
${before}      - name: ${wait}
        delay: 100ms
${after}`;

interface RunView { status: string; outcome?: { http_code: number; body: unknown } }

/** The run suspended by a node serving `first`, then resumed by a node serving `now`. */
async function acrossReload(mode: 'compiled' | 'interpreted', first: string, now: string, tag: string) {
  const a = await serveDurable([await planOf('jobs.yaml', mode, first)], store, { API: up.url }, { maxDelayMs: 50, pollMs: 600_000 });
  const res = await fetch(`${a.url}/later`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  expect(res.status).toBe(202);
  const { run_id: id } = (await res.json()) as { run_id: string };
  const plans: Plan[] = [await planOf('jobs.yaml', mode, now)];
  const logs: string[] = [];
  const b = startResumer({ plans, store, env: processEnvironment({ SERVICE__VAR__API: up.url }), services: { clock: systemClock, store }, node: `node-${tag}`, pollMs: 50, log: (m) => logs.push(m) });
  try {
    return { id, logs, run: await until(async () => { const v = (await (await fetch(`${a.url}/_ap/runs/${id}`)).json()) as RunView; return v.status === 'succeeded' || v.status === 'failed' ? v : undefined; }) };
  } finally { await b.stop(); await a.close(); }
}

describe.each(['compiled', 'interpreted'] as const)('resuming after the config changed (%s)', (mode) => {
  it('continues at the action it waits in, found by name', async () => {
    const tag = `${mode}-moved`;
    const { run } = await acrossReload(mode,
      config('', 'Wait', call('Finish', `/finish-${tag}`) + '        output: http\n'),
      config(call('Added', `/added-${tag}`), 'Wait', call('Extra', `/extra-${tag}`) + call('Finish', `/finish-${tag}`) + '        output: http\n'), tag);
    expect(run.status).toBe('succeeded');
    expect([up.count(`/added-${tag}`), up.count(`/extra-${tag}`), up.count(`/finish-${tag}`)]).toEqual([0, 1, 1]);
  }, 30_000);

  it('fails with the reason when the action it waits in was renamed', async () => {
    const tag = `${mode}-renamed`;
    const { id, run } = await acrossReload(mode,
      config('', 'Wait', call('Finish', `/finish-${tag}`)),
      config('', 'Pause', call('Finish', `/finish-${tag}`)), tag);
    expect(run).toMatchObject({ status: 'failed', outcome: { http_code: 500 } });
    expect(JSON.stringify(run.outcome)).toContain(`run ${id}: action \\"Wait\\" it waits in is no longer in interface later (removed or renamed since the run started): the run cannot continue`);
    expect(up.count(`/finish-${tag}`)).toBe(0);
  }, 30_000);
});
