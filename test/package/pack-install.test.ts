// The npm package as a user gets it: the project packed (`npm pack`, whose prepack builds dist/ and
// the declarations) from a copy of the checkout, so this checkout's dist/ is never rebuilt under
// other tests; the tarball installed into an empty folder with no registry (`npm ci --offline`
// against the tarballs in npm's cache, every proxy a closed port); then the installed CLI checks,
// serves and compiles the quickstart with no TypeScript loader (the compiled module type-checks
// against the package's declarations), and starts a project with `init` whose `test` passes (a
// generated module run through bin/dist-hooks.mjs). One pack and one install for every assertion.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offlineLock } from '../support/offline-lock.ts';

const repo = resolve('.');
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { name: string; version: string; dependencies: Record<string, string>; bin: Record<string, string> };
const work = mkdtempSync(join(tmpdir(), 'pw-pack-'));
const app = join(work, 'app');
const children: ChildProcess[] = [];
let packed: string[] = [];

function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env }, maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}:\n${r.stderr}`);
  return r.stdout;
}

const installed = (...args: string[]) => spawnSync(process.execPath, [join(app, 'node_modules/.bin/pipewright'), ...args], { cwd: app, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

function listening(args: string[]): Promise<string> {
  const child = spawn(process.execPath, args, { cwd: app, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((ok, fail) => {
    let err = '';
    // The listening line is on stderr (stdout holds only JSON lines, drained).
    child.stdout!.resume();
    child.stderr!.on('data', (d) => { err += d; const m = /listening on (http:\/\/\S+)/.exec(err); if (m) ok(m[1]!); });
    child.on('exit', (c) => fail(new Error(`exited ${c}: ${err}`)));
  });
}

beforeAll(() => {
  // The checkout's files (tracked and new, not ignored) with its node_modules, as a clone would be.
  const src = join(work, 'src');
  for (const f of run('git', ['ls-files', '-co', '--exclude-standard', '-z'], repo).split('\0').filter(Boolean)) {
    if (!existsSync(f)) continue; // deleted, not yet committed
    mkdirSync(dirname(join(src, f)), { recursive: true });
    cpSync(f, join(src, f));
  }
  symlinkSync(realpathSync('node_modules'), join(src, 'node_modules'));
  const [report] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], src)) as Array<{ filename: string; files: Array<{ path: string }> }>;
  packed = report!.files.map((f) => f.path);

  mkdirSync(app);
  const tarball = join(app, report!.filename);
  cpSync(join(work, report!.filename), tarball);
  const tgzPkg = { ...pkg, ...(JSON.parse(run('tar', ['-xzOf', tarball, 'package/package.json'], app)) as typeof pkg) };
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, dependencies: { [pkg.name]: `file:${report!.filename}` } }));
  writeFileSync(join(app, 'package-lock.json'), JSON.stringify(offlineLock(join(repo, 'package-lock.json'), tarball, tgzPkg)));
  const cache = process.env.npm_config_cache ?? run('npm', ['config', 'get', 'cache'], app).trim();
  const closed = 'http://127.0.0.1:9';
  try {
    run('npm', ['ci', '--offline', '--ignore-scripts', '--no-audit', '--no-fund', '--cache', cache, '--proxy', closed, '--https-proxy', closed], app);
  } catch (e) {
    throw new Error(`${(e as Error).message}\nENOTCACHED means npm's cache (${cache}) lacks a tarball of the project's lock: \`npm ci\` in the checkout fills it, or set npm_config_cache to the cache it used`);
  }
  // Whatever the dependencies say, nothing at run time may need a TypeScript loader.
  rmSync(join(app, 'node_modules/tsx'), { recursive: true, force: true });
  cpSync(join(repo, 'fixtures/quickstart.yaml'), join(app, 'quickstart.yaml'));
}, 900_000);

afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  // Thousands of files: removed by a process of its own, not waited for. (src/node_modules is a
  // symlink: rm removes the link, never what it points to.)
  spawn('rm', ['-rf', work], { detached: true, stdio: 'ignore' }).unref();
});

describe('the packed package', () => {
  it('holds the built JavaScript, its declarations, the CLI, the docs and the schema, and no sources, tests or tooling', () => {
    for (const f of ['dist/cli/main.js', 'dist/runtime/index.js', 'dist/runtime/index.d.ts', 'dist/compiler/schema/config.schema.json', 'bin/pipewright.mjs', 'README.md', 'LICENSE', 'docs/guide.md', 'package.json',
      // The inspector page's files, read beside their module (runtime/server/inspector/assets.ts).
      'dist/runtime/server/inspector/index.html', 'dist/runtime/server/inspector/app.js', 'dist/runtime/server/inspector/app.css']) expect(packed, f).toContain(f);
    const stray = packed.filter((f) => /^(test|bench|fixtures|out|scripts|runtime|compiler|cli)\//.test(f) || /^(stryker|vitest|tsconfig)/.test(f) || (f.endsWith('.ts') && !f.endsWith('.d.ts')));
    expect(stray).toEqual([]);
  });

  it('declares the runtime with .js imports that resolve inside the package', () => {
    const d = readFileSync(join(app, 'node_modules/pipewright/dist/runtime/index.d.ts'), 'utf8');
    expect(d).not.toMatch(/from '\.[^']*\.ts'/);
    expect(d).toMatch(/from '\.\/plan\.js'/);
  });
});

// Each starts the installed CLI (and compile a code-cache process): a limit for a loaded machine, not a speed check.
describe('the installed CLI, with no registry and no tsx', { timeout: 120_000 }, () => {
  it('prints its version', () => {
    const r = installed('--version');
    expect(r.stdout).toBe(`${pkg.version}\n`);
  });

  it('checks a config', () => {
    const r = installed('check', 'quickstart.yaml');
    expect(r.stderr).toBe('ok quickstart.yaml\n');
    expect(r.status).toBe(0);
  });

  it('serves it', async () => {
    const url = await listening([join(app, 'node_modules/.bin/pipewright'), 'serve', 'quickstart.yaml', '--port', '0']);
    const res = await fetch(`${url}/hello?name=Ada`);
    expect(await res.json()).toEqual({ message: 'Hello, Ada!' });
  });

  it('starts a project with init whose test passes, its modeline naming the installed schema', () => {
    expect(installed('init', 'demo').status).toBe(0);
    const t = spawnSync(process.execPath, [join(app, 'node_modules/.bin/pipewright'), 'test', 'api.yaml'], { cwd: join(app, 'demo'), encoding: 'utf8' });
    expect(t.stdout, t.stderr).toBe('1 passed, 0 failed\n');
    const schema = /\$schema=\.\/(\S+)/.exec(readFileSync(join(app, 'demo/api.yaml'), 'utf8'))![1]!;
    expect(JSON.parse(readFileSync(join(app, schema), 'utf8')).$id).toMatch(/config\.schema\.json$/);
  });

  it('compiles it to a server that answers and a module that type-checks against the declarations', async () => {
    const r = installed('compile', 'quickstart.yaml', '--out', 'built');
    expect(r.status, r.stderr).toBe(0);
    const url = await listening([join(app, 'built/quickstart/server.mjs'), '--port', '0']);
    const res = await fetch(`${url}/order_total`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: [{ sku: 'a', price: 2.5, qty: 2 }] }) });
    expect(await res.json()).toEqual({ count: 1, sum: { line_total: 5, qty: 2 } });
    // The generated module imports `pipewright/runtime`: resolved through the installed package's exports.
    const tsc = join(repo, 'node_modules/typescript/bin/tsc');
    const t = spawnSync(process.execPath, [tsc, '--noEmit', '--strict', '--skipLibCheck', '--module', 'esnext', '--moduleResolution', 'bundler', '--target', 'es2022', '--allowImportingTsExtensions', 'built/quickstart/quickstart.ts'], { cwd: app, encoding: 'utf8' });
    expect(t.stdout + t.stderr).toBe('');
  });
});
