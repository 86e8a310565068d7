// The sftp action against a real SFTP server in process (ssh2's Server, generated host key, a temp
// directory), in both execution paths: every operation, password and key auth, the host key check,
// failures that name the action and are retried (non-HTTP rule), and no connection left open.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { stringify } from 'yaml';
import { executeInterface } from '../../runtime/exec/run.ts';
import { systemClock } from '../../runtime/services.ts';
import { planOf, testEnv } from '../support/plans.ts';
import { check } from '../schema/helpers.ts';
import { startSftpServer, type TestSftpServer } from './server.ts';

let server: TestSftpServer;
beforeAll(async () => { server = await startSftpServer(); });
afterAll(async () => { await server.close(); });
// Every run closes its connection: the server sees each session end.
afterEach(async () => { await vi.waitFor(() => expect(server.open()).toBe(0), { timeout: 2000 }); });

const MODES = ['compiled', 'interpreted'] as const;
let n = 0;

/** Runs one sftp action (fields beside the defaults) in the given path; secrets as markers. */
async function run(mode: (typeof MODES)[number], sftp: Record<string, unknown>, action: Record<string, unknown> = {}, secrets: Record<string, string> = {}) {
  const block = { host: '127.0.0.1', port: 'a|var::PORT|', user: server.user, password: 'a|secret::PASSWORD|', host_key: 'a|var::HOST_KEY|', ...sftp };
  for (const k of Object.keys(block)) if ((block as Record<string, unknown>)[k] === undefined) delete (block as Record<string, unknown>)[k];
  const yaml = stringify({ interfaces: { op: { show_error_detail: true, actions: [{ name: 'Files', sftp: block, ...action }] } } });
  const plan = await planOf(`sftp-${mode}-${++n}.yaml`, mode, yaml);
  const i = plan.interfaces[0]!;
  const env = testEnv({ PORT: String(server.port), HOST_KEY: server.fingerprint }, { PASSWORD: server.password, KEY: server.privateKey, PASSPHRASE: server.passphrase, ...secrets });
  return executeInterface(plan, i, { method: 'POST', path: i.route, params: {}, headers: {}, body: null, rawBody: '' }, { trigger: 'test', env, services: { clock: systemClock } });
}
const body = (r: Awaited<ReturnType<typeof run>>) => r.response.body as any;

describe.each(MODES)('sftp (%s)', (mode) => {
  it('mkdir creates missing parents and is success on an existing directory', async () => {
    const dir = `/${mode}/a/b`;
    expect(body(await run(mode, { operation: 'mkdir', path: dir }))).toEqual({ Files: { path: dir, created: true } });
    expect(existsSync(join(server.root, mode, 'a', 'b'))).toBe(true);
    expect(body(await run(mode, { operation: 'mkdir', path: dir }))).toEqual({ Files: { path: dir, created: false } });
  });

  it('put then get text, and put/get bytes as base64', async () => {
    mkdirSync(join(server.root, `${mode}-io`), { recursive: true });
    const text = 'héllo, wörld\nline 2 ✓';
    expect(body(await run(mode, { operation: 'put', path: `/${mode}-io/a.txt`, content: text }))).toEqual({ Files: { path: `/${mode}-io/a.txt`, size: Buffer.byteLength(text) } });
    expect(readFileSync(join(server.root, `${mode}-io`, 'a.txt'), 'utf8')).toBe(text);
    const got = body(await run(mode, { operation: 'get', path: `/${mode}-io/a.txt` })).Files;
    expect(got).toMatchObject({ path: `/${mode}-io/a.txt`, size: Buffer.byteLength(text), encoding: 'text', content: text });
    expect(Math.abs(got.modified - Date.now() / 1000)).toBeLessThan(120);

    // 100 KiB of every byte value: several chunks each way, byte-identical.
    const bytes = Buffer.from(Array.from({ length: 100 * 1024 }, (_, i) => (i * 7) % 256));
    expect(body(await run(mode, { operation: 'put', path: `/${mode}-io/b.bin`, content: bytes.toString('base64'), encoding: 'base64' })).Files.size).toBe(bytes.length);
    expect(readFileSync(join(server.root, `${mode}-io`, 'b.bin')).equals(bytes)).toBe(true);
    const back = body(await run(mode, { operation: 'get', path: `/${mode}-io/b.bin`, encoding: 'base64' })).Files;
    expect(Buffer.from(back.content, 'base64').equals(bytes)).toBe(true);
  });

  it('a binary file read as text fails, naming the action and encoding: base64', async () => {
    writeFileSync(join(server.root, `${mode}-bin.dat`), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    writeFileSync(join(server.root, `${mode}-nul.txt`), 'abc\0def');
    for (const f of [`${mode}-bin.dat`, `${mode}-nul.txt`]) {
      const r = await run(mode, { operation: 'get', path: `/${f}` });
      expect(r.response.status).toBe(500);
      expect(body(r).error).toMatchObject({ message: 'action "Files" failed', action: 'Files' });
      expect(body(r).error.detail).toBe(`sftp deploy@127.0.0.1:${server.port}: get /${f}: the file is binary (not UTF-8 text); read it with encoding: base64`);
    }
  });

  it('list returns name, path, size, is_dir, modified (epoch seconds), sorted by name', async () => {
    const dir = join(server.root, `${mode}-list`);
    mkdirSync(join(dir, 'sub'), { recursive: true });
    writeFileSync(join(dir, 'b.csv'), 'x,y\n');
    writeFileSync(join(dir, 'a.json'), '{}');
    const items = body(await run(mode, { operation: 'list', path: `/${mode}-list` })).Files;
    expect(items.map((i: any) => ({ ...i, modified: typeof i.modified }))).toEqual([
      { name: 'a.json', path: `/${mode}-list/a.json`, size: 2, is_dir: false, modified: 'number' },
      { name: 'b.csv', path: `/${mode}-list/b.csv`, size: 4, is_dir: false, modified: 'number' },
      { name: 'sub', path: `/${mode}-list/sub`, size: expect.any(Number), is_dir: true, modified: 'number' },
    ]);
    expect(Math.abs(items[0].modified - Date.now() / 1000)).toBeLessThan(120);
  });

  it('rename moves a file; delete removes a file and an empty directory', async () => {
    const dir = join(server.root, `${mode}-mv`);
    mkdirSync(join(dir, 'empty'), { recursive: true });
    writeFileSync(join(dir, 'old.txt'), 'x');
    expect(body(await run(mode, { operation: 'rename', path: `/${mode}-mv/old.txt`, to: `/${mode}-mv/new.txt` }))).toEqual({ Files: { path: `/${mode}-mv/old.txt`, to: `/${mode}-mv/new.txt` } });
    expect([existsSync(join(dir, 'old.txt')), existsSync(join(dir, 'new.txt'))]).toEqual([false, true]);
    expect(body(await run(mode, { operation: 'delete', path: `/${mode}-mv/new.txt` }))).toEqual({ Files: { path: `/${mode}-mv/new.txt`, deleted: true } });
    expect(body(await run(mode, { operation: 'delete', path: `/${mode}-mv/empty` }))).toEqual({ Files: { path: `/${mode}-mv/empty`, deleted: true } });
    expect(existsSync(join(dir, 'new.txt')) || existsSync(join(dir, 'empty'))).toBe(false);
    const missing = await run(mode, { operation: 'delete', path: `/${mode}-mv/new.txt` });
    expect(body(missing).error.detail).toBe(`sftp deploy@127.0.0.1:${server.port}: stat /${mode}-mv/new.txt: No such file`);
  });

  it('authenticates with an encrypted private key and its passphrase', async () => {
    writeFileSync(join(server.root, `${mode}-key.txt`), 'by key');
    const r = await run(mode, { operation: 'get', path: `/${mode}-key.txt`, password: undefined, private_key: 'a|secret::KEY|', private_key_passphrase: 'a|secret::PASSPHRASE|' });
    expect(body(r).Files.content).toBe('by key');
    // Again, with the key parsed on the first run (runtime/actions/sftp/private-key.ts).
    const again = await run(mode, { operation: 'get', path: `/${mode}-key.txt`, password: undefined, private_key: 'a|secret::KEY|', private_key_passphrase: 'a|secret::PASSPHRASE|' });
    expect(body(again).Files.content).toBe('by key');
    for (const secret of [server.passphrase, server.privateKey.split('\n')[1]!, server.password]) expect(JSON.stringify(r)).not.toContain(secret);
  });

  it('a private key that cannot be used fails the action saying so, each time, before the SSH connection starts', async () => {
    const before = server.connections();
    for (let i = 0; i < 2; i++) {
      const r = await run(mode, { operation: 'list', path: '/', password: undefined, private_key: 'not a key' });
      expect(JSON.stringify(body(r))).toMatch(/sftp: \\"private_key\\" could not be used: Cannot parse privateKey: /);
    }
    expect(server.connections()).toBe(before);
  });

  it('accept_any_host_key skips the check', async () => {
    const r = await run(mode, { operation: 'list', path: '/', host_key: undefined, accept_any_host_key: true });
    expect(r.response.status).toBe(200);
  });

  it('a wrong host key fingerprint is refused before authenticating, and retried', async () => {
    const wrong = `SHA256:${'A'.repeat(43)}`;
    const before = server.connections();
    const r = await run(mode, { operation: 'list', path: '/', host_key: wrong }, { retry: { attempts: 2, delay: 0, jitter: 'none' } });
    expect(r.response.status).toBe(502);
    expect(body(r).error).toMatchObject({ message: 'action "Files" failed', action: 'Files' });
    expect(body(r).error.detail).toBe(`sftp deploy@127.0.0.1:${server.port}: the server's host key ${server.fingerprint} does not match host_key ${wrong}; the connection was refused`);
    expect(r.state.steps.Files!.attempts).toBe(2);
    expect(server.connections() - before).toBe(2);
  });

  it('an authentication failure is a clear error naming the action, retried, each connection closed', async () => {
    const before = server.connections();
    const r = await run(mode, { operation: 'list', path: '/' }, { retry: { attempts: 3, delay: 0, jitter: 'none' } }, { PASSWORD: 'not-the-password' });
    expect(r.response.status).toBe(502);
    expect(body(r).error).toMatchObject({ message: 'action "Files" failed', action: 'Files', detail: `sftp deploy@127.0.0.1:${server.port}: authentication failed (tried password)` });
    expect(JSON.stringify(r)).not.toContain('not-the-password');
    expect(r.state.steps.Files!.attempts).toBe(3);
    expect(server.connections() - before).toBe(3);
  });

  it('an unreachable server fails as a connect failure', async () => {
    const r = await run(mode, { operation: 'list', path: '/', port: 1 });
    expect(r.response.status).toBe(502);
    expect(body(r).error.detail).toMatch(/^sftp deploy@127\.0\.0\.1:1: could not connect: .*ECONNREFUSED/);
  });

  it('the outbound policy applies: a denied host answers 403, is never connected to, and is not retried (a refusal, as for HTTP)', async () => {
    const before = server.connections();
    try {
      process.env.SERVICE__MANAGED_MODE = '1';
      const literal = await run(mode, { operation: 'list', path: '/' }, { retry: { attempts: 3, delay: 0, jitter: 'none' } });
      expect(literal.response.status).toBe(403);
      expect(body(literal).error.detail).toBe('outbound call refused: 127.0.0.1 resolves to a private, loopback or link-local address, denied in managed mode');
      expect(literal.state.steps.Files!.attempts).toBe(1);
      delete process.env.SERVICE__MANAGED_MODE;
      process.env.SERVICE__OUTBOUND_DENY = 'localhost';
      const named = await run(mode, { operation: 'list', path: '/', host: 'localhost' });
      expect(named.response.status).toBe(403);
      expect(body(named).error.detail).toBe('outbound call refused: localhost is denied by SERVICE__OUTBOUND_DENY');
    } finally {
      delete process.env.SERVICE__MANAGED_MODE;
      delete process.env.SERVICE__OUTBOUND_DENY;
    }
    expect(server.connections()).toBe(before);
  });

  it("the action's timeout abandons a stalled operation (504) and closes the connection", async () => {
    server.setStalled(true);
    try {
      // Long enough for the SSH handshake on a loaded machine (then the stalled list is what it abandons).
      const r = await run(mode, { operation: 'list', path: '/' }, { timeout: 2000 });
      expect(r.response.status).toBe(504);
      expect(body(r).error.detail).toBe(`sftp deploy@127.0.0.1:${server.port}: list abandoned when the action's timeout passed`);
    } finally {
      server.setStalled(false);
    }
  });

  it('a server that stops answering fails after the idle limit (504) and the connection is closed', async () => {
    server.setStalled(true);
    try {
      // The same limit bounds the SSH handshake (not stalled): 300 ms was within reach of a handshake
      // on a loaded 2-core machine, which then failed as "no SSH handshake" instead.
      const r = await run(mode, { operation: 'list', path: '/', timeout: '1000ms' });
      expect(r.response.status).toBe(504);
      expect(body(r).error.detail).toBe(`sftp deploy@127.0.0.1:${server.port}: list /: no answer within 1000 ms`);
    } finally {
      server.setStalled(false);
    }
  });
});

describe('sftp connection', () => {
  // Small SSH packets written back to back would each wait for the peer's delayed ACK (~40 ms).
  it('turns Nagle off on its socket while it connects', async () => {
    const spy = vi.spyOn(Socket.prototype, 'setNoDelay');
    const calls: Array<{ on: boolean | undefined; connecting: boolean }> = [];
    spy.mockImplementation(function (this: Socket, on?: boolean) { calls.push({ on, connecting: this.connecting }); return this; });
    try {
      expect((await run('interpreted', { operation: 'list', path: '/' })).response.status).toBe(200);
    } finally {
      spy.mockRestore();
    }
    // The test server's accepted sockets (already connected) set it too: the client's is the one still connecting.
    expect(calls).toContainEqual({ on: true, connecting: true });
  });
});

describe('sftp at check', () => {
  const yaml = (extra: string) => `interfaces:\n  op:\n    actions:\n      - name: Files\n        sftp:\n          host: h\n          user: u\n          password: p\n          operation: list\n          path: /\n${extra}`;
  it('refuses an action with neither host_key nor accept_any_host_key, at its position', () => {
    expect(check(yaml('')).filter((d) => d.severity === 'error')).toEqual([
      { at: '5:9', severity: 'error', message: 'missing required field "host_key" in sftp of action "Files"', hint: "host_key is required unless accept_any_host_key is true (it verifies the server's identity)" },
    ]);
    expect(check(yaml('          accept_any_host_key: true\n')).filter((d) => d.severity === 'error')).toEqual([]);
    expect(check(yaml('          host_key: a|var::HK|\n')).filter((d) => d.severity === 'error')).toEqual([]);
  });
});
