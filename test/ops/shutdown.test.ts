// Graceful shutdown of a real `pipewright serve` process: on SIGTERM it stops accepting, a request
// in flight still gets its response within SERVICE__SHUTDOWN_GRACE_SECS and the process exits 0;
// a request that would outlast the grace is stopped (503, Retry-After, its run id: no durable store
// here), logged as left, and the process still exits. Fast path in the first case, interpreter in the
// second. (Suspending into a durable store instead: test/durable/shutdown-park.test.ts.)
import { spawn, type ChildProcess } from 'node:child_process';
import type { ServerResponse } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { until } from '../durable/helpers.ts';

type Up = Awaited<ReturnType<typeof countingUpstream>>;
let up: Up;
const held: ServerResponse[] = [];
const children: ChildProcess[] = [];
const dir = mkdtempSync(join(tmpdir(), 'pw-shutdown-'));
const configFile = join(dir, 'shop.yaml');

beforeAll(async () => {
  // /hold answers only when the test releases it.
  up = await countingUpstream({ '/hold': (_q, res) => void held.push(res) });
  writeFileSync(configFile, `
interfaces:
  slow_report:
    route: /report
    actions:
      - name: Upstream
        url: a|var::API|/hold
        timeout: 1h
        output: http
`);
});
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  for (const r of held) r.destroy();
  await up.close();
});

type Line = Record<string, unknown> & { msg: string };
function serve(env: Record<string, string>) {
  const child = spawn(process.execPath, [resolve('bin/pipewright.mjs'), 'serve', configFile, '--port', '0'], {
    env: { ...process.env, SERVICE__VAR__API: up.url, SERVICE__LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => { out += d; });
  child.stderr!.on('data', (d) => { err += d; });
  const exited = new Promise<{ code: number | null; at: number }>((r) => child.once('exit', (code) => r({ code, at: Date.now() })));
  const url = new Promise<string>((ok, fail) => {
    // The listening line is on stderr (stdout holds only JSON lines).
    child.stderr!.on('data', () => { const m = /listening on (http:\/\/\S+)/.exec(err); if (m) ok(m[1]!); });
    void exited.then(({ code }) => fail(new Error(`serve exited ${code}: ${err}`)));
  });
  const lines = () => out.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Line);
  return { child, url, exited, lines, stdout: () => out, stderr: () => err };
}

describe('graceful shutdown', () => {
  it('a request in flight at SIGTERM completes within the grace, then the process exits 0', async () => {
    const s = serve({ SERVICE__SHUTDOWN_GRACE_SECS: '20' });
    const url = await s.url;
    const answer = fetch(`${url}/report`).then(async (r) => ({ status: r.status, body: await r.json() as unknown }));
    await until(() => (held.length === 1 ? true : undefined), 30_000);
    const signalled = Date.now();
    s.child.kill('SIGTERM');
    await until(() => (s.lines().some((l) => l.msg.startsWith('shutting down')) ? true : undefined), 30_000);
    // New connections are refused once it stopped accepting.
    await expect(fetch(`${url}/report`)).rejects.toThrow();
    json(held.shift()!, 200, { total: 42 });
    expect(await answer).toEqual({ status: 200, body: { total: 42 } });
    const { code, at } = await s.exited;
    expect(code).toBe(0);
    expect(at - signalled).toBeLessThan(20_000);
    const lines = s.lines();
    expect(lines.find((l) => l.msg === 'request')).toMatchObject({ interface: 'slow_report', status: 200 });
    expect(lines.some((l) => l.msg.startsWith('shutdown grace period over'))).toBe(false);
    // stdout holds only JSON lines (`serve | jq -c .`); the listening line went to stderr.
    for (const l of s.stdout().split('\n').filter(Boolean)) expect(() => JSON.parse(l), l).not.toThrow();
    expect(lines.find((l) => l.msg === 'started')).toMatchObject({ level: 30, port: Number(new URL(url).port) });
    expect(s.stderr()).toMatch(/^pipewright: listening on http:\/\/127\.0\.0\.1:\d+$/m);
  }, 60_000);

  it('a request that would outlast the grace is stopped with 503 and the run id (no durable store), logged as left, and the process exits', async () => {
    const s = serve({ SERVICE__SHUTDOWN_GRACE_SECS: '1', SERVICE__DISABLE_FASTPATH: '1' });
    const url = await s.url;
    const answer = fetch(`${url}/report`).then(async (r) => ({ status: r.status, retryAfter: r.headers.get('retry-after'), runId: r.headers.get('x-run-id'), body: await r.json() as { error: { run_id: string } } }));
    await until(() => (held.length === 1 ? true : undefined), 30_000);
    const signalled = Date.now();
    s.child.kill('SIGTERM');
    const { code, at } = await s.exited;
    expect(code).toBe(0);
    // The grace (1 s) and the closing of pools, not the upstream's hour.
    expect(at - signalled).toBeGreaterThanOrEqual(900);
    expect(at - signalled).toBeLessThan(15_000);
    // The run is not kept (memory store): its client is told to retry, with the run id.
    const got = await answer;
    expect(got).toMatchObject({ status: 503, retryAfter: '5', body: { error: { status: 503, run_id: got.runId } } });
    const left = s.lines().find((l) => l.msg.startsWith('shutdown grace period over'));
    expect(left, s.stderr()).toBeDefined();
    expect(left!.stopped).toEqual([{ run_id: got.runId, interface: 'shop.slow_report' }]);
    expect(left!.suspended).toEqual([]);
    expect(left!.in_flight).toEqual([]);
  }, 60_000);
});
