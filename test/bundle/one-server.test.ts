// `compile a.yaml b.yaml --out DIR --one-server`: one DIR/server.mjs serving both configs, as
// `serve a.yaml b.yaml` does (each config's module and OpenAPI document still in DIR/<name>/), and
// configs that could not be served together (a shared route) stop the build with nothing written.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const bin = resolve('bin/pipewright.mjs');
const dir = mkdtempSync(join(tmpdir(), 'pw-one-'));
const children: ChildProcess[] = [];
afterAll(() => { for (const c of children) c.kill('SIGKILL'); });

const PING = `
interfaces:
  ping:
    method: GET
    actions:
      - name: Pong
        input: a|params|
        post_transforms:
          - add_attribute: { pong: true }
        output: http
`;

const compile = (...args: string[]) => spawnSync(process.execPath, [bin, 'compile', ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

describe('compile --one-server', { timeout: 120_000 }, () => {
  it('writes one server.mjs that serves every config', async () => {
    writeFileSync(join(dir, 'ping.yaml'), PING);
    const out = join(dir, 'out');
    const r = compile('fixtures/quickstart.yaml', join(dir, 'ping.yaml'), '--out', out, '--one-server');
    expect(r.status, r.stderr).toBe(0);
    for (const f of ['quickstart/quickstart.ts', 'quickstart/openapi.json', 'ping/ping.ts', 'ping/openapi.json']) expect(existsSync(join(out, f)), f).toBe(true);
    expect(existsSync(join(out, 'quickstart/server.mjs'))).toBe(false);

    const child = spawn(process.execPath, [join(out, 'server.mjs'), '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    const url = await new Promise<string>((ok, fail) => {
      let s = '';
      // The listening line is on stderr (stdout holds only JSON lines, drained).
      child.stdout!.resume();
      child.stderr!.on('data', (d) => { s += d; const m = /listening on (http:\/\/\S+)/.exec(s); if (m) ok(m[1]!); });
      child.on('exit', (c) => fail(new Error(`exited ${c}`)));
    });
    expect(await (await fetch(`${url}/hello?name=Ada`)).json()).toEqual({ message: 'Hello, Ada!' });
    expect(await (await fetch(`${url}/ping`)).json()).toEqual({ pong: true });
  });

  it('refuses configs that serve the same route, writing nothing', () => {
    copyFileSync('fixtures/quickstart.yaml', join(dir, 'again.yaml'));
    const out = join(dir, 'clash');
    const r = compile('fixtures/quickstart.yaml', join(dir, 'again.yaml'), '--out', out, '--one-server');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/again\.yaml:\d+:\d+: error: .*hello/);
    expect(existsSync(out)).toBe(false);
  });
});
