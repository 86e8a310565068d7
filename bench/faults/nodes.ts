// The harness's server nodes: one compiled bundle (`pipewright compile`), started as separate
// `node server.mjs` processes on fixed ports, so a node killed and started again keeps its address.
// Every process started here is stopped by its pid.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface Node {
  name: string;
  url: string;
  port: number;
  child?: ChildProcess;
  /** Exits the harness did not ask for (a crash). */
  crashes: string[];
  logFile: string;
  stopped: boolean;
}

export async function compileBundle(dir: string, configText: string): Promise<string> {
  const file = join(dir, 'faults.yaml');
  writeFileSync(file, configText);
  const child = spawn(process.execPath, [resolve('bin/pipewright.mjs'), 'compile', file, '--out', join(dir, 'out')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); });
  const code = await new Promise<number | null>((ok, fail) => { child.once('error', fail); child.once('exit', ok); });
  if (code !== 0) throw new Error(`compile failed: ${stderr}`);
  return join(dir, 'out', 'faults', 'server.mjs');
}

export const freePort = () => new Promise<number>((ok) => {
  const s = createServer().listen(0, '127.0.0.1', () => { const p = (s.address() as { port: number }).port; s.close(() => ok(p)); });
});

export async function makeNode(name: string, dir: string): Promise<Node> {
  const port = await freePort();
  return { name, port, url: `http://127.0.0.1:${port}`, crashes: [], logFile: join(dir, `${name}.log`), stopped: false };
}

export async function startNode(n: Node, server: string, env: Record<string, string>): Promise<void> {
  const log = createWriteStream(n.logFile, { flags: 'a' });
  // The probe (bench/faults/probe.mjs) answers SIGUSR2 with a full GC and the process's own figures.
  const args = ['--expose-gc', '--import', PROBE, server, '--port', String(n.port), '--host', '127.0.0.1'];
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env, PW_FAULTS_PROBE_DIR: dirname(n.logFile) }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.pipe(log, { end: false });
  child.stderr!.pipe(log, { end: false });
  n.child = child;
  n.stopped = false;
  child.once('exit', (code, signal) => {
    if (n.child === child && !n.stopped) n.crashes.push(`${n.name} exited unasked (${signal ?? code})`);
  });
  // A limit, not a speed check: on a 2-core machine running other work a start has taken over 30 s.
  const end = Date.now() + 90_000;
  while (Date.now() < end) {
    if (child.exitCode !== null) throw new Error(`${n.name} exited at start: ${readFileSync(n.logFile, 'utf8').slice(-2000)}`);
    try { if ((await fetch(`${n.url}/_ap/health`)).ok) return; } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${n.name} did not start in 90 s`);
}

/** SIGKILL, as a machine losing power: no drain, no last checkpoint. */
export async function killNode(n: Node): Promise<void> {
  const c = n.child;
  if (!c || c.exitCode !== null || c.signalCode !== null) return;
  n.stopped = true;
  const gone = new Promise((r) => c.once('exit', r));
  c.kill('SIGKILL');
  await gone;
}

export function pauseNode(n: Node): void { n.child?.kill('SIGSTOP'); }
export function resumeNode(n: Node): void { n.child?.kill('SIGCONT'); }

export async function stopAll(nodes: Node[]): Promise<void> {
  await Promise.all(nodes.map(async (n) => { resumeNode(n); await killNode(n); }));
}

const PROBE = pathToFileURL(resolve('bench/faults/probe.mjs')).href;

export interface Memory { rssKb: number; fds: number; heapKb?: number; externalKb?: number; resources?: number }

/** A live node's memory after a full GC: RSS and fds from /proc, retained heap, external memory
 *  (buffers) and active handles from the probe. Undefined when the node is down, paused or silent. */
export async function probe(n: Node, ms = 10_000): Promise<Memory | undefined> {
  const pid = n.child?.pid;
  if (!pid || n.child?.exitCode !== null || n.child?.signalCode !== null) return undefined;
  const file = join(dirname(n.logFile), `${pid}.probe.json`);
  rmSync(file, { force: true });
  try { process.kill(pid, 'SIGUSR2'); } catch { return undefined; }
  const end = Date.now() + ms;
  while (!existsSync(file)) {
    if (Date.now() > end || n.child?.exitCode !== null || n.child?.signalCode !== null) return undefined;
    await new Promise((r) => setTimeout(r, 50));
  }
  const p = JSON.parse(readFileSync(file, 'utf8')) as { heapUsed: number; external: number; resources: number };
  const s = sample(n);
  return s && { ...s, heapKb: Math.round(p.heapUsed / 1024), externalKb: Math.round(p.external / 1024), resources: p.resources };
}

/** Resident memory (KiB) and open file descriptors of a live node, from /proc. */
export function sample(n: Node): { rssKb: number; fds: number } | undefined {
  const pid = n.child?.pid;
  if (!pid || n.child?.exitCode !== null) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return { rssKb, fds: readdirSync(`/proc/${pid}/fd`).length };
  } catch { return undefined; }
}

/** Lines of a node's log that say a process-level failure (never expected, whatever the faults). */
export function alarmingLines(n: Node): string[] {
  let text = '';
  try { text = readFileSync(n.logFile, 'utf8'); } catch { return []; }
  return text.split('\n').filter((l) => /unhandled ?rejection|uncaught ?exception|"level":(60|"fatal")|FATAL|Segmentation|heap out of memory/i.test(l));
}
