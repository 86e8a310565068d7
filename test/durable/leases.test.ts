// Three real server processes on one Postgres; the node running a run is killed with SIGKILL while
// an action is in flight. Its lease expires, another node takes the run over from its last
// checkpoint: completed actions are not run again (exactly once), the action in flight runs again
// with the same idempotency key (at least once), and every run completes exactly once.
import { spawn, type ChildProcess } from 'node:child_process';
import type { ServerResponse } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { DATABASE_URL, dropSchema, schemaName, until } from './helpers.ts';

type Up = Awaited<ReturnType<typeof countingUpstream>>;
let up: Up;
const children: ChildProcess[] = [];
const schema = schemaName('leases');
const dir = mkdtempSync(join(tmpdir(), 'pw-leases-'));
const configFile = join(dir, 'jobs.yaml');
// The first /slow call of each run hangs until released; later ones (a takeover's) answer at once.
const hanging: ServerResponse[] = [];
const slowSeen = new Set<string>();
let released = false;

beforeAll(async () => {
  up = await countingUpstream({
    '/first': (_q, res) => json(res, 200, {}),
    '/done': (_q, res) => json(res, 200, { ok: true }),
    '/slow': (_q, res, _n, body) => {
      const id = (JSON.parse(body) as { id: string }).id;
      if (released || slowSeen.has(id)) return json(res, 200, {});
      slowSeen.add(id);
      hanging.push(res);
    },
  });
  writeFileSync(configFile, `
interfaces:
  leased_job:
    route: /job
    method: POST
    actions:
      - { name: Wait, delay: 200ms }
      - name: First
        http: { url: a|var::API|/first, method: POST, body: { id: a|body::id| } }
      - name: Slow
        http: { url: a|var::API|/slow, method: POST, body: { id: a|body::id| }, idempotency: {} }
      - name: Done
        http: { url: a|var::API|/done, method: POST, body: { id: a|body::id| } }
        output: http
`);
});
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  for (const r of hanging) r.destroy();
  await up.close();
  await dropSchema(schema);
});

function node(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [resolve('bin/pipewright.mjs'), 'serve', configFile, '--port', '0'], {
    env: { ...process.env, SERVICE__DATABASE_URL: DATABASE_URL, SERVICE__DATABASE_SCHEMA: schema, SERVICE__MAX_DELAY_SECS: '0.1', SERVICE__RESUME_POLL_MS: '50', SERVICE__LEASE_SECS: '1', SERVICE__LOG_LEVEL: 'warn', SERVICE__VAR__API: up.url },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((ok, fail) => {
    let err = '';
    child.stdout!.resume(); // the listening line is on stderr (stdout holds only JSON lines, drained)
    child.stderr!.on('data', (d) => { err += d; const m = /listening on (http:\/\/\S+)/.exec(err); if (m) ok({ url: m[1]!, child }); });
    child.on('exit', (c) => fail(new Error(`node exited ${c}`)));
  });
}

const query = async (sql: string) => {
  const c = new pg.Client({ connectionString: DATABASE_URL });
  await c.connect();
  try { return (await c.query(sql)).rows; } finally { await c.end(); }
};
const bodies = (path: string) => up.hits.filter((h) => h.path === path).map((h) => ({ id: (JSON.parse(h.body) as { id: string }).id, key: h.headers['idempotency-key'] }));

it('a node killed mid-action: its runs are taken over and every run completes exactly once', async () => {
  const nodes = await Promise.all([node(), node(), node()]);
  const ids = Array.from({ length: 9 }, (_, i) => `job-${i}`);
  for (const [n, id] of ids.entries()) {
    const res = await fetch(`${nodes[n % 3]!.url}/job`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id }) });
    expect(res.status).toBe(202);
  }
  // Every claimed run is inside its Slow action, and nothing more will be claimed (a node's resumer
  // finishes its batch before it claims more): all runs claimed, or every node busy.
  const settled = async () => {
    const [c] = await query(`SELECT count(*) FILTER (WHERE status = 'running')::int AS running, count(*) FILTER (WHERE status = 'suspended')::int AS suspended,
      count(DISTINCT claimed_by) FILTER (WHERE status = 'running')::int AS holders FROM "${schema}".runs`);
    return hanging.length > 0 && hanging.length === c!.running && (c!.suspended === 0 || c!.holders === 3) ? true : undefined;
  };
  await until(settled, 60_000);
  const holders = await query(`SELECT claimed_by, count(*)::int AS n FROM "${schema}".runs WHERE status = 'running' GROUP BY claimed_by ORDER BY n DESC`);
  const victimName = holders[0]!.claimed_by as string;
  const victim = nodes.find((n) => victimName.includes(`-${n.child.pid}-`))!;
  const victimRuns = (await query(`SELECT state->'request'->'body'->>'id' AS id FROM "${schema}".runs WHERE claimed_by = '${victimName}'`)).map((r) => r.id as string);
  expect(victimRuns.length).toBeGreaterThan(0);
  victim.child.kill('SIGKILL');
  await new Promise((r) => victim.child.once('exit', r));
  // The survivors' calls now answer; the victim's sockets are gone with it.
  released = true;
  for (const r of hanging.splice(0)) if (!r.destroyed) json(r, 200, {});

  await until(() => new Set(bodies('/done').map((b) => b.id)).size === ids.length, 60_000).catch(async (e) => { console.log('STAGE2', victimRuns, up.hits.map((h) => h.path), await query(`SELECT id, status, claimed_by, lease_until FROM "${schema}".runs`)); throw e; });
  // The outcome is recorded just after the last call: wait for it, then nothing is left running.
  const rows = await until(async () => {
    const r = await query(`SELECT status, count(*)::int AS n FROM "${schema}".runs GROUP BY status`);
    return r.length === 1 && r[0]!.status === 'succeeded' ? r : undefined;
  }, 30_000);
  expect(rows).toEqual([{ status: 'succeeded', n: ids.length }]);
  for (const id of ids) {
    expect(bodies('/first').filter((b) => b.id === id), `First of ${id}`).toHaveLength(1);
    expect(bodies('/done').filter((b) => b.id === id), `Done of ${id}`).toHaveLength(1);
    const slow = bodies('/slow').filter((b) => b.id === id);
    expect(slow, `Slow of ${id}`).toHaveLength(victimRuns.includes(id) ? 2 : 1);
    // The action in flight ran again with the same idempotency key.
    expect(new Set(slow.map((s) => s.key)).size).toBe(1);
    expect(slow[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
  }
}, 120_000);
