// `pipewright serve <config.yaml>... [--port N] [--host H] [--no-fastpath] [--watch]`
// The configs are compiled by a separate process (cli/serve-build.ts) that exits before this one
// serves, so the serving process never holds the compiler, its inputs or the heap it grew. The fast
// path bundles the generated modules with only the runtime parts they use (as `compile` does for
// server.mjs) and serves from that bundle: no unused engines, surfaces or drivers are loaded. The
// interpreter gets the configs' IR and needs the whole runtime.
// SIGHUP, and with --watch a saved config, compiles again: configs with errors are refused (their
// diagnostics on stderr) and the running ones keep serving; good ones are swapped in on the same
// listener (runtime/server/host.ts). A fast-path reload imports the new bundle, whose runtime makes
// the new generation; the old bundle's code stays loaded (a few MB a reload: ESM cannot be unloaded).
// With --watch, configs with errors at start do not stop it: a placeholder answers 503 until a saved
// file compiles (compiledLater); without --watch they do (exit 1).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, unwatchFile, watchFile, type Stats } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { deserialize } from 'node:v8';
import type { ConfigIR, Host, Plan, PrepareGeneration } from '../runtime/index.ts';
import { fastpathDisabled } from './fastpath.ts';
import { listenPending, type Pending } from './serve-pending.ts';

interface Served {
  plans: Plan[];
  listen(plans: Plan[], o: { port: number; host: string }): Promise<Host>;
  prepareGeneration: PrepareGeneration;
  StartupError: new (m: string) => Error;
}

/** How often --watch looks at the configs: polling the files' status follows editors' atomic saves
 *  and Kubernetes' ConfigMap symlink swaps, which file-system events miss or report as a deletion. */
const WATCH_INTERVAL_MS = 300;

export async function serve(files: string[], o: { port?: string; host?: string; 'no-fastpath'?: boolean; watch?: boolean }): Promise<number> {
  const interpreted = fastpathDisabled(o['no-fastpath']);
  // The interpreter's runtime loads while the configs compile (two cores are common enough).
  const runtime = interpreted ? import('../runtime/index.ts').then(async (rt) => { await rt.initJq(); return rt; }) : null;
  runtime?.catch(() => {}); // awaited below unless compiling fails
  const load = async (): Promise<Served | number> => {
    // What the build leaves is one self-contained file: once read, its folder is removed.
    const dir = mkdtempSync(join(tmpdir(), 'pipewright-'));
    try {
      const code = await compileApart(dir, interpreted ? 'ir' : 'fast', files);
      if (code !== 0) return code;
      if (runtime) {
        const rt = await runtime;
        const irs = deserialize(readFileSync(join(dir, 'ir.bin'))) as ConfigIR[];
        return { plans: irs.map((ir) => rt.interpretConfig(ir)), listen: rt.listen, prepareGeneration: rt.prepareGeneration, StartupError: rt.StartupError };
      }
      return (await import(pathToFileURL(join(dir, 'serve.mjs')).href)) as Served;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const at = { port: Number(o.port ?? process.env.PORT ?? 8080), host: o.host ?? '127.0.0.1' };
  let served = await load();
  // Without --watch a config with errors stops the start; with it, serve waits for a fixed file.
  if (served === 1 && o.watch) served = await compiledLater(files, load, at);
  if (typeof served === 'number') return 1;
  let host: Host;
  try {
    host = await served.listen(served.plans, at);
  } catch (e) {
    if (!(e instanceof served.StartupError)) throw e;
    process.stderr.write(`pipewright: ${e.message}\n`);
    return 1;
  }
  const reload = reloader(async () => {
    const next = await load();
    if (typeof next === 'number') {
      process.stderr.write(`pipewright: reload refused, still serving the previous configs: ${next === 1 ? 'the configs have errors (above)' : 'compiling them was stopped'}\n`);
      return;
    }
    await host.reload(next.plans, next.prepareGeneration);
  });
  process.on('SIGHUP', reload);
  if (o.watch) watchConfigs(files, reload);
  return await new Promise<number>(() => {});
}

/** Calls `changed` when one of the files is saved; the returned function stops watching. */
function watchConfigs(files: string[], changed: () => void): () => void {
  const listener = (now: Stats, before: Stats) => { if (now.mtimeMs !== before.mtimeMs || now.size !== before.size || now.ino !== before.ino) changed(); };
  for (const f of files) watchFile(f, { interval: WATCH_INTERVAL_MS }, listener);
  return () => { for (const f of files) unwatchFile(f, listener); };
}

/** --watch and the configs do not compile at start: a placeholder answers 503 on the port
 *  (cli/serve-pending.ts) while the files are watched; once a save compiles, it is closed and what
 *  compiled is served on the same port. SIGHUP compiles again; SIGTERM/SIGINT end the process (exit 0). A number:
 *  the placeholder could not listen (its reason on stderr) or compiling was stopped. */
async function compiledLater(files: string[], load: () => Promise<Served | number>, at: { port: number; host: string }): Promise<Served | number> {
  let pending: Pending;
  try {
    pending = await listenPending(at);
  } catch (e) {
    // The whole runtime, only on this way out (the port is taken, the host not local...).
    const { startupMessage } = await import('../runtime/index.ts');
    const line = startupMessage(e, at);
    if (line === undefined) throw e;
    process.stderr.write(`pipewright: ${line}\n`);
    return 1;
  }
  at.port = pending.port;
  const shown = at.host.includes(':') ? `[${at.host}]` : at.host;
  process.stderr.write(`pipewright: the configs have errors (above); watching them: every route of http://${shown}:${at.port} answers 503 until a saved file compiles\n`);
  const stop = () => { void pending.close().then(() => process.exit(0)); };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  // SIGHUP compiles again, as it reloads once serving (unhandled, it would end the process).
  let again = (): void => {};
  const hup = () => again();
  process.on('SIGHUP', hup);
  const next = await new Promise<Served | number>((done) => {
    let unwatch = (): void => {}, settled = false;
    const attempt = reloader(async () => {
      if (settled) return;
      let r: Served | number;
      try { r = await load(); } catch (e) { r = 1; process.stderr.write(`pipewright: ${(e as Error).message}\n`); }
      if (typeof r === 'number') { process.stderr.write(`pipewright: ${r === 1 ? 'the configs still have errors (above)' : 'compiling them was stopped'}; still watching them\n`); return; }
      settled = true;
      unwatch();
      done(r);
    });
    unwatch = watchConfigs(files, attempt);
    again = attempt;
  });
  process.off('SIGTERM', stop);
  process.off('SIGINT', stop);
  process.off('SIGHUP', hup);
  await pending.close();
  return next;
}

/** One reload at a time; asked for while one runs, one more runs after it (with the files as they are then). */
function reloader(run: () => Promise<void>): () => void {
  let running = false, again = false;
  const go = (): void => {
    if (running) { again = true; return; }
    running = true;
    run().catch((e: unknown) => process.stderr.write(`pipewright: reload failed, still serving the previous configs: ${(e as Error).message}\n`))
      .finally(() => { running = false; if (again) { again = false; go(); } });
  };
  return go;
}

/** Runs cli/serve-build.ts in a fresh node (built or through tsx, as this CLI runs) with this
 *  process's stderr; its exit code (1: the configs have errors; 2 if it was killed). This process's command-line
 *  node options are not passed on (a preload or an inspector port is meant for the server);
 *  NODE_OPTIONS, in the environment, applies to both. Its output goes to this stderr: a reload's
 *  diagnostics must not mix with the JSON log lines on stdout. */
async function compileApart(dir: string, mode: 'fast' | 'ir', files: string[]): Promise<number> {
  const fromSource = import.meta.url.endsWith('.ts');
  const script = fileURLToPath(new URL(fromSource ? './serve-build.ts' : './serve-build.js', import.meta.url));
  const execArgv = fromSource ? ['--import', import.meta.resolve('tsx/esm')] : [];
  const child = spawn(process.execPath, [...execArgv, script, dir, mode, ...files], { stdio: ['ignore', 2, 'inherit'] });
  const [code] = (await once(child, 'exit')) as [number | null];
  return code ?? 2;
}
