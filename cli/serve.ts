// `pipewright serve <config.yaml>... [--port N] [--host H] [--no-fastpath]`
// The configs are compiled by a separate process (cli/serve-build.ts) that exits before this one
// serves, so the serving process never holds the compiler, its inputs or the heap it grew. The fast
// path bundles the generated modules with only the runtime parts they use (as `compile` does for
// server.mjs) and serves from that bundle: no unused engines, surfaces or drivers are loaded. The
// interpreter gets the configs' IR and needs the whole runtime.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { deserialize } from 'node:v8';
import type { ConfigIR, Plan } from '../runtime/index.ts';
import { fastpathDisabled } from './fastpath.ts';

interface Served { plans: Plan[]; listen(plans: Plan[], o: { port: number; host: string }): Promise<unknown>; StartupError: new (m: string) => Error }

export async function serve(files: string[], o: { port?: string; host?: string; 'no-fastpath'?: boolean }): Promise<number> {
  const interpreted = fastpathDisabled(o['no-fastpath']);
  // The interpreter's runtime loads while the configs compile (two cores are common enough).
  const runtime = interpreted ? import('../runtime/index.ts').then(async (rt) => { await rt.initJq(); return rt; }) : null;
  runtime?.catch(() => {}); // awaited below unless compiling fails
  // What the build leaves is one self-contained file: once read, its folder is removed (a restart makes a new one).
  const dir = mkdtempSync(join(tmpdir(), 'pipewright-'));
  let served: Served;
  try {
    const code = await compileApart(dir, interpreted ? 'ir' : 'fast', files);
    if (code !== 0) return code;
    if (runtime) {
      const rt = await runtime;
      const irs = deserialize(readFileSync(join(dir, 'ir.bin'))) as ConfigIR[];
      served = { plans: irs.map((ir) => rt.interpretConfig(ir)), listen: rt.listen, StartupError: rt.StartupError };
    } else {
      served = (await import(pathToFileURL(join(dir, 'serve.mjs')).href)) as Served;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  try {
    await served.listen(served.plans, { port: Number(o.port ?? process.env.PORT ?? 8080), host: o.host ?? '127.0.0.1' });
  } catch (e) {
    if (!(e instanceof served.StartupError)) throw e;
    process.stderr.write(`pipewright: ${e.message}\n`);
    return 1;
  }
  return await new Promise<number>(() => {});
}

/** Runs cli/serve-build.ts in a fresh node (built or through tsx, as this CLI runs) with this
 *  process's stdout and stderr; its exit code (1 if it was killed). This process's command-line
 *  node options are not passed on (a preload or an inspector port is meant for the server);
 *  NODE_OPTIONS, in the environment, applies to both. */
async function compileApart(dir: string, mode: 'fast' | 'ir', files: string[]): Promise<number> {
  const fromSource = import.meta.url.endsWith('.ts');
  const script = fileURLToPath(new URL(fromSource ? './serve-build.ts' : './serve-build.js', import.meta.url));
  const execArgv = fromSource ? ['--import', import.meta.resolve('tsx/esm')] : [];
  const child = spawn(process.execPath, [...execArgv, script, dir, mode, ...files], { stdio: ['ignore', 'inherit', 'inherit'] });
  const [code] = (await once(child, 'exit')) as [number | null];
  return code ?? 1;
}
