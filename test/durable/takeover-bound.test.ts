// A run whose node keeps dying at the same action is not taken over forever: the takeovers at one
// action are counted in the run state, and past SERVICE__MAX_TAKEOVERS the next claim fails the run
// with a 500 saying why (read by GET /_ap/runs/<id>). Each "dying" node here stops renewing its lease
// while its call hangs, as a killed one would; another node's resumer then takes the run over.
import { spawnSync } from 'node:child_process';
import type { ServerResponse } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { startResumer } from '../../runtime/durable/resumer.ts';
import { countTakeover } from '../../runtime/durable/takeovers.ts';
import { opsSettings } from '../../runtime/server/ops-settings.ts';
import { processEnvironment } from '../../runtime/environment.ts';
import type { RunState } from '../../runtime/run-state.ts';
import { systemClock } from '../../runtime/services.ts';
import type { Store } from '../../runtime/store-types.ts';
import { PostgresStore } from '../../runtime/store/postgres.ts';
import { planOf } from '../support/plans.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { DATABASE_URL, dropSchema, schemaName, serveDurable, until } from './helpers.ts';

type Up = Awaited<ReturnType<typeof countingUpstream>>;
let up: Up;
let store: PostgresStore;
const schema = schemaName('takeovers');
const hanging: ServerResponse[] = [];

beforeAll(async () => {
  up = await countingUpstream({ '/slow': (_q, res) => { hanging.push(res); }, '/done': (_q, res) => json(res, 200, { ok: true }) });
  store = new PostgresStore({ url: DATABASE_URL, schema, leaseMs: 300 });
  await store.init();
});
afterAll(async () => {
  for (const r of hanging) if (!r.destroyed) r.destroy();
  await store.close(); await dropSchema(schema); await up.close(); await closeHttpPools();
});

const CONFIG = `
interfaces:
  later:
    method: POST
    actions:
      - name: Wait
        delay: 100ms
      - name: Slow
        http: { url: a|var::API|/slow, method: POST }
      - name: Done
        http: { url: a|var::API|/done, method: POST }
        output: http
`;

describe('takeovers at one action', () => {
  it('are bounded: past SERVICE__MAX_TAKEOVERS the run fails with a 500 saying why', async () => {
    const plan = await planOf('jobs.yaml', 'interpreted', CONFIG);
    const a = await serveDurable([plan], store, { API: up.url }, { maxDelayMs: 50, pollMs: 600_000 });
    // Nodes that die in Slow: their lease is never renewed while the call hangs.
    const dying = Object.create(store) as Store;
    dying.renewLeases = async () => {};
    const env = processEnvironment({ SERVICE__VAR__API: up.url });
    const logs: string[] = [];
    // Each node's resumer is busy with its hanging run from then on: one node per claim.
    const nodes = ['b1', 'b2', 'b3', 'b4'].map((node) => startResumer({ plans: [plan], store: dying, env, services: { clock: systemClock, store: dying }, node, pollMs: 50, maxTakeovers: 2, log: (m) => logs.push(m) }));
    try {
      const res = await fetch(`${a.url}/later`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      const { run_id: id } = (await res.json()) as { run_id: string };
      const run = await until(async () => {
        const v = (await (await fetch(`${a.url}/_ap/runs/${id}`)).json()) as { status: string; outcome?: unknown };
        return v.status === 'failed' ? v : undefined;
      }, 20_000);
      expect(run.outcome).toEqual({
        http_code: 500,
        body: { error: { status: 500, action: 'Slow', message: 'the run failed while resuming (interface "later" of config "jobs", action "Slow"): its node stopped 3 times while running this action; at most 2 takeovers are allowed at one action (SERVICE__MAX_TAKEOVERS)' } },
      });
      // Run when woken, then taken over twice; the third takeover was refused.
      expect(up.count('/slow')).toBe(3);
      const { rows } = await store.pool.query(`SELECT status, state->'takeovers' AS t FROM "${schema}".runs WHERE id = $1`, [id]);
      expect(rows[0]).toEqual({ status: 'failed', t: { cursor: 1, count: 3 } });
      // The nodes still in Slow find the run gone when their calls answer: nothing more runs.
      for (const r of hanging.splice(0)) json(r, 200, {});
      await until(() => logs.filter((m) => m.includes('lease lost')).length === 3 || undefined);
      expect(up.count('/done')).toBe(0);
      expect((await store.pool.query(`SELECT status FROM "${schema}".runs WHERE id = $1`, [id])).rows[0].status).toBe('failed');
    } finally {
      for (const r of hanging.splice(0)) json(r, 200, {});
      await Promise.all(nodes.map((n) => n.stop()));
      await a.close();
    }
  }, 40_000);

  it('are counted per action: progress starts the count again', () => {
    const run = { cursor: 1 } as RunState;
    expect([countTakeover(run), countTakeover(run)]).toEqual([1, 2]);
    run.cursor = 2;
    expect(countTakeover(run)).toBe(1);
    expect(run.takeovers).toEqual({ cursor: 2, count: 1 });
  });

  it('SERVICE__MAX_TAKEOVERS: 5 unless set; a malformed value names the setting', () => {
    expect(opsSettings({}).maxTakeovers).toBe(5);
    expect(opsSettings({ SERVICE__MAX_TAKEOVERS: '0' }).maxTakeovers).toBe(0);
    expect(() => opsSettings({ SERVICE__MAX_TAKEOVERS: 'lots' })).toThrow('SERVICE__MAX_TAKEOVERS=lots must be a whole number between 0 and 1000');
    expect(() => opsSettings({ SERVICE__MAX_TAKEOVERS: '1.5' })).toThrow('SERVICE__MAX_TAKEOVERS=1.5 must be a whole number between 0 and 1000');
    // serve stops with that one line (no stack), before opening the store.
    const file = join(mkdtempSync(join(tmpdir(), 'pw-takeovers-')), 'hello.yaml');
    writeFileSync(file, 'interfaces:\n  hello:\n    actions:\n      - { name: A, input: hi, output: http }\n');
    const r = spawnSync(process.execPath, [resolve('bin/pipewright.mjs'), 'serve', file, '--port', '0'], {
      env: { ...process.env, SERVICE__MAX_TAKEOVERS: '-1' }, encoding: 'utf8', timeout: 30_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe('pipewright: SERVICE__MAX_TAKEOVERS=-1 must be a whole number between 0 and 1000');
  }, 40_000);
});
