// Real server processes on one Postgres: a crash (SIGKILL) loses nothing and runs nothing twice;
// two nodes resume 50 simultaneous due runs exactly once each and accept callbacks for each other.
// The two tests run side by side: each has its own schema, nodes and request ids.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { DATABASE_URL, dropSchema, schemaName, until } from './helpers.ts';

type Up = Awaited<ReturnType<typeof countingUpstream>>;
let up: Up;
const children: ChildProcess[] = [];
const schemas: string[] = [];
const dir = mkdtempSync(join(tmpdir(), 'pw-nodes-'));
const configFile = join(dir, 'jobs.yaml');

beforeAll(async () => {
  up = await countingUpstream({ '/done': (_q, res) => json(res, 200, { ok: true }), '/register': (_q, res) => json(res, 200, {}) });
  writeFileSync(configFile, `
interfaces:
  job:
    method: POST
    actions:
      - name: Wait
        delay: a|body::wait|
      - name: Done
        http:
          url: a|var::API|/done
          method: POST
          body: { id: a|body::id| }
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
        wait_for_callback: { token: a|Token|, timeout: 1h }
      - name: Done
        http:
          url: a|var::API|/done
          method: POST
          body: { id: a|body::id|, by: a|Approval::by| }
        output: http
`);
});
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await up.close();
  for (const s of schemas) await dropSchema(s);
});

/** `pollMs`: how often its resumer looks for due runs. */
function node(schema: string, pollMs = 50): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [resolve('bin/pipewright.mjs'), 'serve', configFile, '--port', '0'], {
    env: { ...process.env, SERVICE__DATABASE_URL: DATABASE_URL, SERVICE__DATABASE_SCHEMA: schema, SERVICE__MAX_DELAY_SECS: '0.1', SERVICE__RESUME_POLL_MS: String(pollMs), SERVICE__VAR__API: up.url },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((ok, fail) => {
    let err = '';
    child.stdout!.resume(); // the listening line is on stderr (stdout holds only JSON lines, drained)
    child.stderr!.on('data', (d) => { err += d; const m = /listening on (http:\/\/\S+)/.exec(err); if (m) ok({ url: m[1]!, child }); });
    child.on('exit', (c) => fail(new Error(`node exited ${c}: ${err}`)));
  });
}

const post = async (url: string, body: unknown) => {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const doneIds = (tag: string) => up.hits.filter((h) => h.path === '/done').map((h) => JSON.parse(h.body) as { id: string; by?: string }).filter((b) => b.id.startsWith(tag));
const tokenOf = (id: string) => up.hits.filter((h) => h.path === '/register').map((h) => JSON.parse(h.body) as { token: string; id: string }).find((b) => b.id === id)!.token;

describe.concurrent('durable runs across processes', () => {
  it('a SIGKILLed node loses nothing: a new process resumes every due run exactly once and accepts the callbacks', async ({ expect }) => {
    const schema = schemaName('crash');
    schemas.push(schema);
    // The node that dies never looks for due runs (its resumer's first poll is a minute away), so
    // every run is left to the new process however long the requests and the kill take.
    const a = await node(schema, 60_000);
    const accepted = await Promise.all([
      ...Array.from({ length: 10 }, (_, n) => post(`${a.url}/job`, { id: `crash-${n}`, wait: '1s' })),
      ...Array.from({ length: 3 }, (_, n) => post(`${a.url}/approval`, { id: `crashcb-${n}` })),
    ]);
    expect(accepted.map((r) => r.status)).toEqual(Array(13).fill(202));
    a.child.kill('SIGKILL');
    await new Promise((r) => a.child.once('exit', r));
    expect(doneIds('crash-')).toHaveLength(0);
    const b = await node(schema);
    await until(() => (doneIds('crash-').length === 10 ? true : undefined), 15_000);
    for (let n = 0; n < 3; n++) expect((await post(`${b.url}/_ap/resume/${tokenOf(`crashcb-${n}`)}`, { by: 'b' })).status).toBe(202);
    await until(() => (doneIds('crashcb-').length === 3 ? true : undefined));
    await new Promise((r) => setTimeout(r, 500));
    expect(doneIds('crash-').map((d) => d.id).sort()).toEqual(Array.from({ length: 10 }, (_, n) => `crash-${n}`).sort());
    expect(doneIds('crashcb-').map((d) => d.by)).toEqual(['b', 'b', 'b']);
    // The work before the wait ran once: the crash did not make anything run again.
    for (let n = 0; n < 3; n++) expect(up.hits.filter((h) => h.path === '/register' && JSON.parse(h.body).id === `crashcb-${n}`)).toHaveLength(1);
  }, 120_000);

  it('two nodes resume 50 simultaneous due runs exactly once each; a callback reaches either node', async ({ expect }) => {
    const schema = schemaName('two');
    schemas.push(schema);
    const [a, b] = await Promise.all([node(schema), node(schema)]);
    const jobs = Array.from({ length: 50 }, (_, n) => post(`${(n % 2 ? a : b).url}/job`, { id: `two-${n}`, wait: '1200ms' }));
    expect((await Promise.all(jobs)).every((r) => r.status === 202)).toBe(true);
    expect((await post(`${a.url}/approval`, { id: 'twocb-a' })).status).toBe(202);
    expect((await post(`${b.url}/approval`, { id: 'twocb-b' })).status).toBe(202);
    // Each callback is posted to the node that did not start the run.
    expect((await post(`${b.url}/_ap/resume/${tokenOf('twocb-a')}`, { by: 'b' })).status).toBe(202);
    expect((await post(`${a.url}/_ap/resume/${tokenOf('twocb-b')}`, { by: 'a' })).status).toBe(202);
    await until(() => (doneIds('two-').length >= 50 && doneIds('twocb-').length === 2 ? true : undefined), 20_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(doneIds('twocb-').map(({ id, by }) => ({ id, by })).sort((x, y) => x.id.localeCompare(y.id))).toEqual([{ id: 'twocb-a', by: 'b' }, { id: 'twocb-b', by: 'a' }]);
    const ids = doneIds('two-').map((d) => d.id);
    expect(ids).toHaveLength(50);
    expect(new Set(ids).size).toBe(50);
  }, 120_000);
});
