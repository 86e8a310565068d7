// `pipewright serve` as users run it: a too-short admin token stops the start with one line; with no
// inbound credential it warns once and serves; with an API key configured, interfaces need it.
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const bin = resolve('bin/pipewright.mjs');
const children: ChildProcess[] = [];
afterAll(() => { for (const c of children) c.kill('SIGKILL'); });

// Operational warnings are log lines (pino, stdout); start-up refusals are one line on stderr.
function start(env: Record<string, string>): Promise<{ url: string; err: () => string }> {
  const child = spawn(process.execPath, [bin, 'serve', 'fixtures/quickstart.yaml', '--port', '0'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let err = '';
  child.stderr!.on('data', (d) => { err += d; });
  return new Promise((ok, fail) => {
    let out = '';
    // The listening line is on stderr; the start-up warnings come before the started line on stdout
    // (JSON or pretty): both seen, the warnings are in.
    const seen = () => { const m = /listening on (http:\/\/\S+)/.exec(err); if (m && /started/.test(out)) ok({ url: m[1]!, err: () => err + out }); };
    child.stdout!.on('data', (d) => { out += d; seen(); });
    child.stderr!.on('data', seen);
    child.on('exit', (c) => fail(new Error(`exited ${c}: ${err}`)));
  });
}

// Each start compiles the config: the starts (own processes and ports) run side by side.
describe.concurrent('serve start-up', () => {
  it('refuses a one-character admin token with a one-line error', async () => {
    const child = spawn(process.execPath, [bin, 'serve', 'fixtures/quickstart.yaml', '--port', '0'], { env: { ...process.env, SERVICE__ADMIN_TOKEN: 'x' }, stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(child);
    let stderr = '';
    child.stderr!.on('data', (d) => { stderr += d; });
    const r = { status: await new Promise((done) => child.on('close', done)), stderr };
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('pipewright: SERVICE__ADMIN_TOKEN is 1 characters; at least 16 are required\n');
  }, 60_000);

  it('warns once when no credential is configured, and requires the API key when one is', async () => {
    const [open, locked] = await Promise.all([start({}), start({ SERVICE__API_KEYS: 'MAIN', SERVICE__SECRET__MAIN: 'key-0123456789abcdef' })]);
    expect((await fetch(`${open.url}/hello?name=Ada`)).status).toBe(200);
    expect(open.err().match(/no inbound credentials configured/g)).toHaveLength(1);
    expect((await fetch(`${locked.url}/hello?name=Ada`)).status).toBe(401);
    expect((await fetch(`${locked.url}/hello?name=Ada`, { headers: { 'x-api-key': 'key-0123456789abcdef' } })).status).toBe(200);
    expect(locked.err()).not.toContain('no inbound credentials');
  }, 60_000);

  it('prints pretty log lines with SERVICE__LOG_PRETTY=1 (the fast path serves from a bundle in a temp folder)', async () => {
    const pretty = await start({ SERVICE__LOG_PRETTY: '1' });
    expect((await fetch(`${pretty.url}/hello?name=Ada`)).status).toBe(200);
    expect(pretty.err()).toMatch(/WARN.*no inbound credentials configured/);
    expect(pretty.err()).not.toMatch(/^\{"level"/m);
  }, 60_000);
});
