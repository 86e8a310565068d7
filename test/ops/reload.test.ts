// Reload without a restart (issue 31, part 5), on a real `pipewright serve --watch` in both paths: a
// request held open by a slow upstream across a reload is answered by the plan it started on, the
// next one by the new plan, on the same listener; a saved config with errors is refused (its
// diagnostics, file:line:col, on stderr), and so is one whose start refuses (a value not set), the
// running one serving on; SIGHUP reloads and reads
// SERVICE__VAR__<NAME>_FILE again; on SIGTERM with SERVICE__SHUTDOWN_DELAY_SECS, /_ap/ready answers 503
// while requests are still served (and /_ap/health 200). The two paths run side by side, each on its
// own process, files and upstream path. A save is atomic (written beside, then renamed), as editors
// save: an in-place write can be seen half-written by a poll, and that refusal would answer a wait
// meant for the next step.
import { spawn, type ChildProcess } from 'node:child_process';
import type { ServerResponse } from 'node:http';
import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { cleanEnv } from '../support/serve-cli.ts';
import { until } from '../durable/helpers.ts';

let up: Awaited<ReturnType<typeof countingUpstream>>;
/** The upstream calls held open, by the path each process calls (/hold-<n>). */
const held = new Map<string, ServerResponse[]>();
const heldOn = (path: string) => held.get(path) ?? held.set(path, []).get(path)!;
const children: ChildProcess[] = [];
const dir = mkdtempSync(join(tmpdir(), 'pw-reload-'));

const config = (version: string) => `
interfaces:
  report:
    route: /report
    actions:
      - name: Upstream
        url: a|var::API|
        timeout: 1h
        post_transforms:
          - add_attribute:
              version: "${version}"
              label: "a|var::LABEL|"
        output: http
`;

beforeAll(async () => {
  up = await countingUpstream({ '/hold-*': (q, res) => void heldOn(q.url!.split('?')[0]!).push(res) });
});
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  for (const r of [...held.values()].flat()) r.destroy();
  await up.close();
});

type Line = Record<string, unknown> & { msg: string };

const save = (file: string, text: string) => { writeFileSync(`${file}.saving`, text); renameSync(`${file}.saving`, file); };

function serve(file: string, args: string[], hold: string, env: Record<string, string>) {
  const child = spawn(process.execPath, [resolve('bin/pipewright.mjs'), 'serve', file, '--port', '0', ...args], {
    env: { ...cleanEnv(), SERVICE__VAR__API: `${up.url}${hold}`, SERVICE__LOG_LEVEL: 'info', ...env },
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

/** Starts GET /report and waits until its upstream call (to `hold`) is held; `release` answers that call. */
async function heldRequest(url: string, hold: string) {
  const calls = heldOn(hold);
  const before = calls.length;
  const answer = fetch(`${url}/report`).then(async (r) => ({ status: r.status, body: await r.json() as Record<string, unknown> }));
  await until(() => calls.length > before || undefined, 30_000);
  const res = calls[before]!;
  return { answer, release: () => json(res, 200, { total: 42 }) };
}

async function answered(url: string, hold: string) {
  const r = await heldRequest(url, hold);
  r.release();
  return r.answer;
}

describe('reload', () => {
  it.concurrent.each([['fast path', []], ['interpreter', ['--no-fastpath']]] as const)('%s: a watched config swaps in between requests; one with errors or a missing value is kept out; SIGHUP reads _FILE values again', async (_mode, flags) => {
    const file = join(dir, `shop-${flags.length}.yaml`);
    const label = join(dir, `label-${flags.length}`);
    const hold = `/hold-${flags.length}`;
    writeFileSync(file, config('one'));
    writeFileSync(label, 'first\n');
    const s = serve(file, [...flags, '--watch'], hold, { SERVICE__VAR__LABEL_FILE: label, SERVICE__SHUTDOWN_DELAY_SECS: '60' });
    const url = await s.url;
    const heldReq = () => heldRequest(url, hold);
    const answer = () => answered(url, hold);
    /** stderr from now on: a wait reads only what the step it follows wrote. */
    const errSince = () => { const from = s.stderr().length; return () => s.stderr().slice(from); };

    // A request in flight across the reload finishes on the old plan; the next gets the new one.
    const inFlight = await heldReq();
    save(file, config('two'));
    await until(() => s.reloads() === 1 || undefined, 60_000);
    const after = await heldReq();
    inFlight.release();
    expect(await inFlight.answer).toEqual({ status: 200, body: { total: 42, version: 'one', label: 'first' } });
    after.release();
    expect(await after.answer).toEqual({ status: 200, body: { total: 42, version: 'two', label: 'first' } });
    expect(s.lines().find((l) => l.msg.startsWith('reloaded'))).toMatchObject({ configs: [`shop-${flags.length}`], reload: 1, in_flight: 1 });

    // A config with errors: its diagnostics as `check` prints them, and the running plan stays.
    let err = errSince();
    save(file, config('three').replace('timeout: 1h', 'timeout: 1h\n        bogus: 1'));
    await until(() => err().includes('reload refused') || undefined, 60_000);
    expect(err()).toMatch(new RegExp(`${file.replace(/[.]/g, '\\.')}:\\d+:\\d+: error`));
    expect(await answer()).toEqual({ status: 200, body: { total: 42, version: 'two', label: 'first' } });
    expect(s.reloads()).toBe(1);

    // One that compiles but cannot start (a value it reads is not set): refused with the reason.
    err = errSince();
    save(file, config('three').replace('version: "three"', 'version: "a|var::UNSET|"'));
    await until(() => err().includes('reload refused, still serving the previous configs: a value the config reads is not set') || undefined, 60_000);
    expect(err()).toContain('a|var::UNSET| (SERVICE__VAR__UNSET)');
    expect(await answer()).toEqual({ status: 200, body: { total: 42, version: 'two', label: 'first' } });
    expect(s.reloads()).toBe(1);

    // SIGHUP: the configs compiled again (now good) and the variable's file read again.
    // The value's file first: the save starts the reload, which reads it.
    writeFileSync(label, 'second\r\n');
    save(file, config('four'));
    await until(() => s.reloads() === 2 || undefined, 60_000);
    expect(await answer()).toEqual({ status: 200, body: { total: 42, version: 'four', label: 'second' } });
    writeFileSync(label, 'third\n');
    s.child.kill('SIGHUP');
    await until(() => s.reloads() === 3 || undefined, 60_000);
    expect(await answer()).toEqual({ status: 200, body: { total: 42, version: 'four', label: 'third' } });
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
    expect(await answer()).toEqual({ status: 200, body: { total: 42, version: 'four', label: 'third' } });
  }, 180_000);
});
