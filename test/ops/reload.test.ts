// Reload without a restart (issue 31, part 5), on a real `pipewright serve --watch` in both paths: a
// request held open by a slow upstream across a reload is answered by the plan it started on, the
// next one by the new plan, on the same listener; a saved config with errors is refused (its
// diagnostics, file:line:col, on stderr), and so is one whose start refuses (a value not set), the
// running one serving on; SIGHUP reloads and reads
// SERVICE__VAR__<NAME>_FILE again; on SIGTERM with SERVICE__SHUTDOWN_DELAY_SECS, /_ap/ready answers 503
// while requests are still served (and /_ap/health 200).
import { spawn, type ChildProcess } from 'node:child_process';
import type { ServerResponse } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { cleanEnv } from '../support/serve-cli.ts';
import { until } from '../durable/helpers.ts';

let up: Awaited<ReturnType<typeof countingUpstream>>;
const held: ServerResponse[] = [];
const children: ChildProcess[] = [];
const dir = mkdtempSync(join(tmpdir(), 'pw-reload-'));

const config = (version: string) => `
interfaces:
  report:
    route: /report
    actions:
      - name: Upstream
        url: a|var::API|/hold
        timeout: 1h
        post_transforms:
          - add_attribute:
              version: "${version}"
              label: "a|var::LABEL|"
        output: http
`;

beforeAll(async () => {
  up = await countingUpstream({ '/hold': (_q, res) => void held.push(res) });
});
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  for (const r of held) r.destroy();
  await up.close();
});

type Line = Record<string, unknown> & { msg: string };

function serve(file: string, args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [resolve('bin/pipewright.mjs'), 'serve', file, '--port', '0', ...args], {
    env: { ...cleanEnv(), SERVICE__VAR__API: up.url, SERVICE__LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '', err = '';
  child.stdout!.on('data', (d) => { out += d; });
  child.stderr!.on('data', (d) => { err += d; });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  // The listening line is on stderr (stdout holds only JSON lines).
  const url = until(() => /listening on (http:\/\/\S+)/.exec(err)?.[1], 60_000);
  const lines = () => out.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Line);
  const reloads = () => lines().filter((l) => l.msg.startsWith('reloaded')).length;
  return { child, url, exited, lines, reloads, stderr: () => err };
}

/** Starts GET /report and waits until its upstream call is held; `release` answers that call. */
async function heldRequest(url: string) {
  const before = held.length;
  const answer = fetch(`${url}/report`).then(async (r) => ({ status: r.status, body: await r.json() as Record<string, unknown> }));
  await until(() => held.length > before || undefined, 30_000);
  const res = held[before]!;
  return { answer, release: () => json(res, 200, { total: 42 }) };
}

async function answered(url: string) {
  const r = await heldRequest(url);
  r.release();
  return r.answer;
}

describe.each([['fast path', []], ['interpreter', ['--no-fastpath']]] as const)('reload (%s)', (_mode, flags) => {
  it('a watched config swaps in between requests; one with errors or a missing value is kept out; SIGHUP reads _FILE values again', async () => {
    const file = join(dir, `shop-${flags.length}.yaml`);
    const label = join(dir, `label-${flags.length}`);
    writeFileSync(file, config('one'));
    writeFileSync(label, 'first\n');
    const s = serve(file, [...flags, '--watch'], { SERVICE__VAR__LABEL_FILE: label, SERVICE__SHUTDOWN_DELAY_SECS: '60' });
    const url = await s.url;

    // A request in flight across the reload finishes on the old plan; the next gets the new one.
    const inFlight = await heldRequest(url);
    writeFileSync(file, config('two'));
    await until(() => s.reloads() === 1 || undefined, 60_000);
    const after = await heldRequest(url);
    inFlight.release();
    expect(await inFlight.answer).toEqual({ status: 200, body: { total: 42, version: 'one', label: 'first' } });
    after.release();
    expect(await after.answer).toEqual({ status: 200, body: { total: 42, version: 'two', label: 'first' } });
    expect(s.lines().find((l) => l.msg.startsWith('reloaded'))).toMatchObject({ configs: [`shop-${flags.length}`], reload: 1, in_flight: 1 });

    // A config with errors: its diagnostics as `check` prints them, and the running plan stays.
    writeFileSync(file, config('three').replace('timeout: 1h', 'timeout: 1h\n        bogus: 1'));
    await until(() => s.stderr().includes('reload refused') || undefined, 60_000);
    expect(s.stderr()).toMatch(new RegExp(`${file.replace(/[.]/g, '\\.')}:\\d+:\\d+: error`));
    expect(await answered(url)).toEqual({ status: 200, body: { total: 42, version: 'two', label: 'first' } });
    expect(s.reloads()).toBe(1);

    // One that compiles but cannot start (a value it reads is not set): refused with the reason.
    writeFileSync(file, config('three').replace('version: "three"', 'version: "a|var::UNSET|"'));
    await until(() => s.stderr().includes('reload refused, still serving the previous configs: a value the config reads is not set') || undefined, 60_000);
    expect(s.stderr()).toContain('a|var::UNSET| (SERVICE__VAR__UNSET)');
    expect(await answered(url)).toEqual({ status: 200, body: { total: 42, version: 'two', label: 'first' } });
    expect(s.reloads()).toBe(1);

    // SIGHUP: the configs compiled again (now good) and the variable's file read again.
    writeFileSync(file, config('four'));
    writeFileSync(label, 'second\r\n');
    await until(() => s.reloads() === 2 || undefined, 60_000);
    expect(await answered(url)).toEqual({ status: 200, body: { total: 42, version: 'four', label: 'second' } });
    writeFileSync(label, 'third\n');
    s.child.kill('SIGHUP');
    await until(() => s.reloads() === 3 || undefined, 60_000);
    expect(await answered(url)).toEqual({ status: 200, body: { total: 42, version: 'four', label: 'third' } });
    const ready = await fetch(`${url}/_ap/ready`);
    expect([ready.status, await ready.json()]).toEqual([200, { ready: true }]);
    // No value of a file reaches the log.
    expect(s.lines().some((l) => JSON.stringify(l).includes('third'))).toBe(false);

    // SIGTERM with SERVICE__SHUTDOWN_DELAY_SECS: not ready (load balancers stop sending), still serving.
    s.child.kill('SIGTERM');
    await until(() => s.lines().some((l) => l.msg.startsWith('shutting down: /_ap/ready answers 503')) || undefined, 30_000);
    const draining = await fetch(`${url}/_ap/ready`);
    expect([draining.status, await draining.json()]).toEqual([503, { ready: false, not: ['draining'] }]);
    expect((await fetch(`${url}/_ap/health`)).status).toBe(200); // alive, only leaving
    expect(await answered(url)).toEqual({ status: 200, body: { total: 42, version: 'four', label: 'third' } });
  }, 180_000);
});
