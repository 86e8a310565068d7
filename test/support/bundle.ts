// A config compiled, bundled into a standalone server.mjs and served from a temporary folder with no
// node_modules (as operators run it); resolves with its base URL. One bundle per config and options
// in a test file (bundleFolder). `stops` gets the kill; `signal`
// (when given) is how to send the process a signal (SIGHUP: a reload); `build`, how to bundle it
// (`inspector`: with the inspector page, as `compile --inspector`; `tracing`: with the tracer beside
// it, as `compile --tracing`).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateModule } from '../../compiler/codegen/module.ts';
import { bundleServer } from '../../compiler/bundle.ts';
import { irOf } from './plans.ts';

export async function serveBundle(file: string, config: string, env: Record<string, string>, stops: Array<() => unknown>, signal?: { send?: (s: NodeJS.Signals) => void; stdout?: () => string }, build: { inspector?: boolean; tracing?: boolean } = {}): Promise<string> {
  const folder = await bundleFolder(file, config, build);
  const child: ChildProcess = spawn(process.execPath, ['server.mjs', '--port', '0'], { cwd: folder, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  stops.push(() => child.kill('SIGKILL'));
  let out = '';
  if (signal) { signal.send = (s) => child.kill(s); signal.stdout = () => out; }
  return new Promise((resolve, reject) => {
    let err = '';
    // The listening line is on stderr; stdout holds only JSON lines (kept for tests that read them).
    child.stdout!.on('data', (d) => { out += d; });
    child.stderr!.on('data', (d) => { err += d; const m = /listening on (http:\/\/\S+)/.exec(err); if (m) resolve(m[1]!); });
    child.on('exit', (code) => reject(new Error(`bundle exited ${code}: ${err}`)));
  });
}

// Bundles already built in this test file, by config and options: servers differing only in their
// environment share one (esbuild over the runtime and the code-cache process are the slow part).
const built = new Map<string, Promise<string>>();

/** The folder holding `server.mjs` (and its code cache) of `config` bundled with `build`, built once per test file. */
export function bundleFolder(file: string, config: string, build: { inspector?: boolean; tracing?: boolean } = {}): Promise<string> {
  const key = JSON.stringify([file, config, build.inspector === true, build.tracing === true]);
  let folder = built.get(key);
  if (!folder) {
    folder = (async () => {
      const dir = mkdtempSync(join(tmpdir(), 'pw-bundle-'));
      const ir = irOf(file, config);
      const moduleFile = join(dir, `${ir.name}.ts`);
      writeFileSync(moduleFile, await generateModule(ir));
      await bundleServer(moduleFile, join(dir, 'server.mjs'), build);
      return dir;
    })();
    built.set(key, folder);
    folder.catch(() => built.delete(key));
  }
  return folder;
}
