// Every fixture with its recorded requests gives byte-identical responses through the fast path,
// the interpreter, and the standalone bundle (with its code cache) run from a temporary folder with no node_modules.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { generateModule } from '../compiler/codegen/module.ts';
import { bundleServer } from '../compiler/bundle.ts';
import { closeHttpPools } from '../runtime/actions/http/pool.ts';
import { irOf, planOf, serveOn, testEnv } from './support/plans.ts';
import { startUpstream, type Upstream } from './support/upstream.ts';
import { writeFileSync } from 'node:fs';
import { fixtureConfigs } from './support/fixture-configs.ts';

interface Recorded { method: string; path: string; body?: unknown; raw?: string; headers?: Record<string, string> }
interface Answer { status: number; type: string | null; body: string; extra: Record<string, string> }

const fixtures = fixtureConfigs();
let upstream: Upstream;
const stops: Array<() => Promise<unknown> | unknown> = [];

async function call(base: string, r: Recorded): Promise<Answer> {
  const headers: Record<string, string> = { ...(r.headers ?? {}) };
  let body: string | undefined = r.raw;
  if (r.body !== undefined) { body = JSON.stringify(r.body); headers['content-type'] ??= 'application/json'; }
  const res = await fetch(base + r.path, { method: r.method, headers, ...(body !== undefined ? { body } : {}) });
  const extra = Object.fromEntries([...res.headers].filter(([k]) => k.startsWith('x-') && k !== 'x-run-id' || k === 'cache-control'));
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text(), extra };
}

async function startBundle(file: string, vars: Record<string, string>): Promise<string> {
  const build = mkdtempSync(join(tmpdir(), 'pw-bundle-'));
  const ir = irOf(join('fixtures', file));
  const moduleFile = join(build, `${ir.name}.ts`);
  writeFileSync(moduleFile, await generateModule(ir));
  await bundleServer(moduleFile, join(build, 'server.mjs'));
  const run = mkdtempSync(join(tmpdir(), 'pw-run-'));
  // With its code cache, as `pipewright compile` leaves it (test/cli.test.ts runs one without).
  for (const f of ['server.mjs', 'server.mjs.cache']) copyFileSync(join(build, f), join(run, f));
  const env = { ...process.env, ...Object.fromEntries(Object.entries(vars).map(([k, v]) => [`SERVICE__VAR__${k}`, v])) };
  const child: ChildProcess = spawn(process.execPath, ['server.mjs', '--port', '0'], { cwd: run, env, stdio: ['ignore', 'pipe', 'pipe'] });
  stops.push(() => child.kill('SIGKILL'));
  return new Promise((resolve, reject) => {
    let errText = '';
    child.stdout!.resume(); // the listening line is on stderr (stdout holds only JSON lines, drained)
    child.stderr!.on('data', (d) => {
      errText += d;
      const m = /listening on (http:\/\/\S+)/.exec(errText);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`bundle exited ${code}: ${errText}`)));
  });
}

beforeAll(async () => { upstream = await startUpstream(); });
afterAll(async () => {
  for (const stop of stops) await stop();
  await upstream.close();
  await closeHttpPools();
});

describe.each(fixtures)('%s', (file) => {
  const recorded = parse(readFileSync(join('fixtures/requests', file), 'utf8')) as Recorded[];
  it('answers identically through the fast path, the interpreter and the bundle', async () => {
    const vars = { API_BASE: upstream.url };
    const fast = await serveOn([await planOf(join('fixtures', file), 'compiled')], testEnv(vars));
    const slow = await serveOn([await planOf(join('fixtures', file), 'interpreted')], testEnv(vars));
    stops.push(() => fast.app.close(), () => slow.app.close());
    const bundle = await startBundle(file, vars);
    for (const r of recorded) {
      const a = await call(fast.url, r);
      const b = await call(slow.url, r);
      const c = await call(bundle, r);
      expect(b, `${r.method} ${r.path} interpreted`).toEqual(a);
      expect(c, `${r.method} ${r.path} bundle`).toEqual(a);
    }
  }, 60_000);
});
