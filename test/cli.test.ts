// The command line as a user runs it: real processes, real ports, real files.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, copyFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { deserialize, serialize } from 'node:v8';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { compileConfig } from '../compiler/index.ts';
import { fixtureConfigs } from './support/fixture-configs.ts';
import { runCli } from './support/test-cli.ts';

// Each test starts one to three CLI processes that compile a config: on a machine shared with other
// work that takes longer than the suite's 20 s default (a limit, not a speed check; speed is in bench/).
// Commands whose test is about what they print and return (check, test, schema, an unknown interface)
// run through cli/main.ts in this process (runCli): bin/pipewright.mjs hands main's code to
// process.exit as it does for the commands started as processes here.
vi.setConfig({ testTimeout: 60_000 });

const bin = resolve('bin/pipewright.mjs');
const children: ChildProcess[] = [];
afterAll(() => { for (const c of children) c.kill('SIGKILL'); });

function cli(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function start(cmd: string[], cwd = process.cwd(), env: Record<string, string> = {}): Promise<string> {
  const child = spawn(process.execPath, cmd, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((ok, fail) => {
    let err = '';
    child.stdout!.resume(); // the listening line is on stderr (stdout holds only JSON lines, drained)
    child.stderr!.on('data', (d) => { err += d; const m = /listening on (http:\/\/\S+)/.exec(err); if (m) ok(m[1]!); });
    child.on('exit', (c) => fail(new Error(`exited ${c}: ${err}`)));
  });
}

describe('pipewright serve', () => {
  it.each([[[]], [['--no-fastpath']]])('serves the quickstart on a free port, a malformed JSON body a clear 400, never a stack trace %j', async (extra) => {
    const url = await start([bin, 'serve', 'fixtures/quickstart.yaml', '--port', '0', ...extra]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${url}/hello?name=Ada`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'Hello, Ada!' });
    const bad = await fetch(`${url}/hello?name=${encodeURIComponent('<b>')}`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: { status: 400, message: 'name must be 1-40 letters' } });
    const malformed = await fetch(`${url}/order_total`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"items": [' });
    expect(malformed.status).toBe(400);
    const body = (await malformed.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/^request body is not valid JSON/);
    expect(JSON.stringify(body)).not.toMatch(/at .*\.ts:\d+/);
  });

  // The configs are compiled by another process (cli/serve-build.ts): its diagnostics and exit code are serve's.
  it.each([[[]], [['--no-fastpath']]])('stops on a config error with the diagnostic and its code frame, exit 1 %j', (extra) => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-cli-'));
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'interfaces:\n  hello:\n    method: GETT\n    actions:\n      - name: A\n        output: http\n');
    const r = cli(['serve', file, '--port', '0', ...extra]);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toBe(`${file}:3:13: error: method "GETT" of interface "hello" is not an HTTP method
  1 | interfaces:
  2 |   hello:
> 3 |     method: GETT
    |             ^
  4 |     actions:
  5 |       - name: A
hint: did you mean "GET"?
`);
  });

  it('stops on routes that two configs both serve, exit 1', () => {
    const r = cli(['serve', 'fixtures/quickstart.yaml', 'fixtures/quickstart.yaml', '--port', '0', '--no-fastpath']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^fixtures\/quickstart\.yaml:\d+:\d+: error: /);
    expect(r.out).toBe('');
  });

  // `serve --no-fastpath` gets the IR from the compiling process through v8's serialisation: the
  // interpreter must see the same values, plain objects all (no class, function or symbol in the IR).
  it.each(fixtureConfigs())('hands the interpreter the IR of %s unchanged', (f) => {
    const { ir } = compileConfig(join('fixtures', f));
    expect(ir).toBeDefined();
    // Node's strict comparison: vitest's reads `.constructor` of each object, which a config's own
    // keys may be (hostile.yaml's accepts.schema has a property named `constructor`).
    expect(isDeepStrictEqual(deserialize(serialize(ir)), ir)).toBe(true);
  });

});

describe('pipewright compile', () => {
  it('writes the module and a standalone bundle that serves from any folder', async () => {
    const out = mkdtempSync(join(tmpdir(), 'pw-cli-'));
    const r = cli(['compile', 'fixtures/quickstart.yaml', 'fixtures/report.yaml', '--out', out]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain('[2/2] compiling fixtures/report.yaml');
    expect(readFileSync(join(out, 'quickstart/quickstart.ts'), 'utf8')).toBe(readFileSync('out/quickstart/quickstart.ts', 'utf8'));
    expect(statSync(join(out, 'quickstart/server.mjs.cache')).size).toBeGreaterThan(0);
    // Copied alone: a server without its code cache compiles its script and serves the same.
    const elsewhere = mkdtempSync(join(tmpdir(), 'pw-run-'));
    copyFileSync(join(out, 'quickstart/server.mjs'), join(elsewhere, 'server.mjs'));
    const url = await start(['server.mjs', '--port', '0', '--host', '127.0.0.1'], elsewhere);
    const res = await fetch(`${url}/order_total`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: [{ price: 1.005, qty: 1 }] }) });
    expect(await res.json()).toEqual({ count: 1, sum: { line_total: 1.01, qty: 1 } });
  }, 60_000);
});

describe('pipewright run', () => {
  it('prints the body and exits 0 on success, 1 on a failed run, with the run\'s line on stderr as a server writes it (both paths)', async () => {
    const lines = (err: string) => err.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
    const ok = cli(['run', 'fixtures/quickstart.yaml', 'hello', '--param', 'name=Grace']);
    expect(ok).toMatchObject({ code: 0, out: '{"message":"Hello, Grace!"}\n' });
    expect(lines(ok.err).filter((l) => l.msg === 'run finished')).toEqual([
      { level: 30, time: expect.any(String), run_id: expect.stringMatching(/^[0-9a-f-]{36}$/), config: 'quickstart', interface: 'hello', trigger: 'cli', status: 'succeeded', duration_ms: expect.any(Number), http_status: 200, msg: 'run finished' },
    ]);
    const failed = cli(['run', 'fixtures/quickstart.yaml', 'order_total', '--body', '{"items":[]}', '--no-fastpath']);
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.out)).toEqual({ error: { status: 422, message: 'an order needs at least one item', action: 'Lines' } });
    expect(lines(failed.err).find((l) => l.msg === 'run finished')).toMatchObject({ level: 40, interface: 'order_total', trigger: 'cli', status: 'failed', http_status: 422, error: 'an order needs at least one item' });
    expect((await runCli(['run', 'fixtures/quickstart.yaml', 'nope'])).code).toBe(1);
  });

  it('prints a failed action\'s reason on stderr as the server logs it, secrets redacted (issue 30)', async () => {
    const refused = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => refused.once('listening', r));
    const port = (refused.address() as AddressInfo).port;
    await new Promise((r) => refused.close(r)); // nothing listens there now: the connection is refused
    const dir = mkdtempSync(join(tmpdir(), 'pw-run-'));
    const file = join(dir, 'fail.yaml');
    writeFileSync(file, `interfaces:\n  x:\n    actions:\n      - name: Fetch\n        url: http://127.0.0.1:${port}/orders?key=a|secret::KEY|\n`);
    const r = cli(['run', file, 'x'], { SERVICE__SECRET__KEY: 'run-secret-value-1234' });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out)).toEqual({ error: { status: 502, message: 'action "Fetch" failed', action: 'Fetch' } });
    const line = r.err.split('\n').map((l) => { try { return JSON.parse(l); } catch { return undefined; } }).find((l) => l?.msg === 'action "Fetch" failed');
    expect(line).toMatchObject({ level: 40, config: 'fail', interface: 'x', action: 'Fetch', attempt: 1 });
    expect(line.reason).toContain(`ECONNREFUSED 127.0.0.1:${port}`);
    expect(line.reason).toContain(`GET http://127.0.0.1:${port}/orders`);
    expect(r.err).not.toContain('run-secret-value-1234');
  });
});

describe('pipewright check', () => {
  it('exits 0 for valid configs and 1 with file:line:col and a code frame otherwise', async () => {
    expect((await runCli(['check', 'fixtures/quickstart.yaml', 'fixtures/report.yaml'])).code).toBe(0);
    const dir = mkdtempSync(join(tmpdir(), 'pw-check-'));
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'interfaces:\n  x:\n    actions:\n      - name: A\n        url: http://example.test\n        retyr: { attempts: 2 }\n');
    const r = await runCli(['check', file]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${file}:6:9: error: unknown field "retyr" in action "A"`);
    expect(r.err).toContain('> 6 |         retyr: { attempts: 2 }');
    expect(r.err).toContain('did you mean "retry"?');
  });

  it('prints warnings but still exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-check-'));
    const file = join(dir, 'warn.yaml');
    writeFileSync(file, 'interfaces:\n  x:\n    actions:\n      - name: A\n        input: a|body|\n        post_transforms:\n          - add_attribute: { id: "x=a|body" }\n');
    const r = await runCli(['check', file]);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/warn\.yaml:7:\d+: warning: .*a\|body/);
  });
});

describe('pipewright test and schema', () => {
  it('runs the configs\' own examples and tests', async () => {
    const r = await runCli(['test', 'fixtures/quickstart.yaml']);
    expect(r.code, r.err).toBe(0);
    // Two interfaces' examples, then the five cases of fixtures/quickstart.tests.yaml.
    expect(r.out).toBe('7 passed, 0 failed\n');
    const dir = mkdtempSync(join(tmpdir(), 'pw-test-'));
    const file = join(dir, 'contract.yaml');
    writeFileSync(file, `interfaces:
  echo:
    method: POST
    accepts: { example: { n: 2 } }
    produces:
      schema: { type: object, required: [n, doubled] }
    tests:
      - jq: .n
        is_equal_to: 3
    actions:
      - name: Out
        input: a|body|
        output: http
`);
    const bad = await runCli(['test', file]);
    expect(bad.code).toBe(1);
    expect(bad.out).toBe('0 passed, 1 failed\n');
    expect(bad.err).toContain("must have required property 'doubled'");
    expect(bad.err).toContain('expected 2');
  });

  it('prints the JSON Schema of the config format', async () => {
    const r = await runCli(['schema']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual(JSON.parse(readFileSync('compiler/schema/editor.schema.json', 'utf8')));
  });
});
