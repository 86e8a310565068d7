// `pipewright serve --watch` started on a config with errors, in both paths: its diagnostics on
// stderr, then a placeholder on the port answering 503 with a JSON reason on every route,
// /_ap/health 200 and /_ap/ready 503; SIGHUP compiles again; once the file is fixed and saved, the
// config is served on the same port. Without --watch the same config still stops the start (exit 1).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv, serveOutcome } from '../support/serve-cli.ts';
import { until } from '../durable/helpers.ts';

const children: ChildProcess[] = [];
const stops: Array<() => unknown> = [];
const dir = mkdtempSync(join(tmpdir(), 'pw-watch-broken-'));
afterAll(() => { for (const c of children) c.kill('SIGKILL'); for (const s of stops) s(); });

const BROKEN = `
interfaces:
  hello:
    actions:
      - name: Say
        input: { hi: there }
        outptu: http
`;
const FIXED = BROKEN.replace('outptu', 'output');

const get = async (url: string) => { const r = await fetch(url); return { status: r.status, body: await r.json() as Record<string, unknown> }; };

// The three share nothing (own files, ports, processes) and mostly wait on compiles: side by side.
describe.concurrent('serve --watch on a config with errors at start', () => {
  it.each([['fast path', []], ['interpreter', ['--no-fastpath']]] as const)('%s: answers 503 until the saved file compiles, then serves it on the same port', async (_name, args) => {
    const file = join(dir, `hello-${args.length}.yaml`);
    writeFileSync(file, BROKEN);
    const child = spawn(process.execPath, [resolve('bin/pipewright.mjs'), 'serve', file, '--port', '0', '--watch', ...args], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let err = '';
    child.stdout!.resume();
    child.stderr!.on('data', (d) => { err += d; });
    const pending = await until(() => /every route of (http:\/\/\S+) answers 503/.exec(err)?.[1], 60_000);
    expect(err).toMatch(/hello-\d\.yaml:7:9/); // the diagnostic, file:line:col
    expect(await get(`${pending}/hello`)).toEqual({ status: 503, body: { error: { status: 503, message: expect.stringMatching(/^the configs do not compile: nothing is served until they do/) } } });
    expect(await get(`${pending}/_ap/health`)).toEqual({ status: 200, body: { ok: true } });
    expect(await get(`${pending}/_ap/ready`)).toEqual({ status: 503, body: { ready: false, not: ['config'] } });

    // SIGHUP compiles again (and does not end the process).
    child.kill('SIGHUP');
    await until(() => err.includes('the configs still have errors (above); still watching them') || undefined, 60_000);
    expect((await get(`${pending}/hello`)).status).toBe(503);

    writeFileSync(file, FIXED);
    const url = await until(() => /listening on (http:\/\/\S+)/.exec(err)?.[1], 60_000);
    expect(url).toBe(pending);
    expect(await get(`${url}/hello`)).toEqual({ status: 200, body: { hi: 'there' } });
    expect(await get(`${url}/_ap/ready`)).toEqual({ status: 200, body: { ready: true } });
    child.kill('SIGTERM');
    expect(await new Promise((r) => child.once('exit', r))).toBe(0);
  }, 180_000);

  it('without --watch the same config stops the start (exit 1, its diagnostic on stderr)', async () => {
    const file = join(dir, 'once.yaml');
    writeFileSync(file, BROKEN);
    const r = await serveOutcome(file, [], cleanEnv(), stops);
    expect(r).toMatchObject({ code: 1, err: expect.stringMatching(/once\.yaml:7:9/) });
  }, 120_000);
});
