// Issue 29 (5): every config `check` passes starts, and a config problem never prints a stack.
// Route syntax is the router's (find-my-way), route regexes are refused (they would run on the
// backtracking engine), a YAML alias loop is a positioned error; routes that can never match or that
// shadow the server's own paths are warned about, or refused where serving both would fail.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { compileConfig } from '../../compiler/index.ts';
import { runCli } from '../support/test-cli.ts';

vi.setConfig({ testTimeout: 60_000 }); // CLI processes compile a config (a bound, not a speed check)
const bin = resolve('bin/pipewright.mjs');
const dir = mkdtempSync(join(tmpdir(), 'pw-crash-'));
const children: ChildProcess[] = [];
afterAll(() => { for (const c of children) c.kill('SIGKILL'); });

const iface = (name: string, route: string, extra = '') => `  ${name}:\n    route: ${JSON.stringify(route)}\n${extra}    actions:\n      - name: A\n        input: "x"\n`;
const write = (name: string, text: string) => { const f = join(dir, name); writeFileSync(f, text); return f; };
// `serve` as a process (its compile runs apart, writing to the process's stderr); `check` through
// main(argv) in this process (a stack would be main throwing, which fails the test).
const serve = (args: string[]) => { const r = spawnSync(process.execPath, [bin, 'serve', ...args, '--port', '0'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 50_000 }); return { code: r.status, out: r.stdout, err: r.stderr }; };
const check = (files: string[]) => runCli(['check', ...files]);
const STACK = /^\s+at .+[:(]\d+/m;

const refused: Array<[string, string, RegExp]> = [
  ['wildcard before the end', `interfaces:\n${iface('w', '/x/*/y')}`, /3:12: error: route \/x\/\*\/y is refused by the router: Wildcard must be the last/],
  ['regex in a parameter', `interfaces:\n${iface('r', '/r/:id(^(a+)+$)')}`, /3:12: error: route \/r\/:id\(\^\(a\+\)\+\$\) has a regular expression in a parameter/],
  ['alias loop', `x: &a [*a]\ninterfaces:\n${iface('h', '/h')}`, /1:8: error: YAML: an alias refers to the anchor it is inside \(a cycle\)/],
  ['parameter named twice', `interfaces:\n${iface('d', '/d/:id/:id')}`, /error: route \/d\/:id\/:id names the parameter "id" twice/],
  ['the metrics endpoint it exposes', `expose_metrics: true\ninterfaces:\n${iface('m', '/metrics', '    method: GET\n')}`, /error: route \/metrics of interface "m" is the metrics endpoint this config serves/],
];

describe.each(refused)('%s', (_name, text, message) => {
  it('check and serve refuse it with a position and a hint, no stack', async () => {
    const f = write(`${_name.replace(/\W+/g, '-')}.yaml`, text);
    for (const r of [await check([f]), serve([f])]) {
      expect(r.code, r.err).toBe(1);
      expect(r.out + r.err).toMatch(message);
      expect(r.out + r.err).toMatch(/hint: /);
      expect(r.out + r.err).not.toMatch(STACK);
    }
  });

  it('the compiler API reports it as an error diagnostic', () => {
    const c = compileConfig('inline.yaml', text);
    expect(c.ok).toBe(false);
    expect(c.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.line}:${d.col}: error: ${d.message}`).join('\n')).toMatch(message);
  });
});

describe('warned, and still served', () => {
  const text = `interfaces:\n${iface('marker', '/x/a|params::id|')}${iface('metrics', '/metrics')}${iface('broker', '/mqtt')}${iface('sockets', '/ws/things')}${iface('mcpish', '/local/dev/mcp')}${iface('fine', '/fine/:id')}`;
  it('check warns for each route (never matches, or shadows a built-in path) and passes', () => {
    const c = compileConfig('inline.yaml', text);
    expect(c.ok).toBe(true);
    const warnings = c.diagnostics.filter((d) => d.severity === 'warning').map((d) => d.message);
    expect(warnings).toEqual(expect.arrayContaining([
      expect.stringMatching(/route \/x\/a\|params::id\| holds a marker: routes are not interpolated/),
      expect.stringMatching(/route \/metrics of interface "metrics" shadows the metrics endpoint/),
      expect.stringMatching(/route \/mqtt of interface "broker" shadows the embedded MQTT broker/),
      expect.stringMatching(/route \/ws\/things of interface "sockets" is under \/ws\//),
      expect.stringMatching(/route \/local\/dev\/mcp of interface "mcpish" has the shape of the MCP route/),
    ]));
    expect(warnings.some((w) => w.includes('/fine/:id'))).toBe(false);
  });

  it('serve starts it (a config that passes check starts)', async () => {
    const f = write('warned.yaml', text);
    const child = spawn(process.execPath, [bin, 'serve', f, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    const url = await new Promise<string>((ok, fail) => {
      let err = '';
      child.stdout!.resume(); // the listening line is on stderr (stdout holds only JSON lines, drained)
      child.stderr!.on('data', (d) => { err += d; const m = /listening on (http:\/\/\S+)/.exec(err); if (m) ok(m[1]!); });
      child.on('exit', (c) => fail(new Error(`exited ${c}: ${err}`)));
    });
    expect((await fetch(`${url}/fine/1`)).status).toBe(200);
    child.kill('SIGTERM');
  });
});

describe('configs served together', () => {
  it('a route on another config\'s metrics endpoint: check refuses it; serve stops with one line', async () => {
    const a = write('exposes.yaml', `expose_metrics: true\ninterfaces:\n${iface('a', '/a')}`);
    const b = write('takes.yaml', `interfaces:\n${iface('m', '/metrics', '    method: GET\n')}`);
    const checked = await check([a, b]);
    expect(checked.code).toBe(1);
    expect(checked.out + checked.err).toMatch(/takes\.yaml:\d+:\d+: error: GET \/metrics of interface "m" is the metrics endpoint .*exposes\.yaml exposes/);
    const served = serve([a, b]);
    expect(served.code).toBe(1);
    expect(served.out + served.err).not.toMatch(STACK);
  });
});
