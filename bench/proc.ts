// Child processes of the benchmark: start one, wait for its "listening on <url>" line, read its
// peak resident memory (Linux VmHWM), stop it.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readSync, readFileSync, rmSync, statSync, truncateSync, watch } from 'node:fs';
import { join } from 'node:path';
import { buildDir } from './paths.ts';

export interface Server { name: string; url: string; child: ChildProcess; startMs: number }

/** Each server's stdout goes to a file of its own (bench/.build/logs/), not to a pipe this process
 *  drains: this process also runs the load generator, and reading a server's request lines here
 *  (2-3 MB/s under load) took CPU from the load generator, which counted against servers that log.
 *  Opened for appending, so a file over LOG_MAX is emptied in place (checked every 2 s) and a long
 *  run does not fill the disk. */
const LOG_MAX = 32 * 1024 * 1024;
const logs: string[] = [];
function trimLogs(): void {
  for (const f of logs) { try { if (statSync(f).size > LOG_MAX) truncateSync(f, 0); } catch { /* removed */ } }
}

const LISTENING = /listening on (http:\/\/\S+)/;

export function startServer(name: string, cmd: string, args: string[], o: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): Promise<Server> {
  const t0 = performance.now();
  const dir = join(buildDir, 'logs', String(process.pid));
  if (!logs.length) { rmSync(join(buildDir, 'logs'), { recursive: true, force: true }); setInterval(trimLogs, 2000).unref(); }
  mkdirSync(dir, { recursive: true });
  const logFile = join(dir, `${logs.length}-${name}.log`);
  logs.push(logFile);
  const out = openSync(logFile, 'a+');
  const child = spawn(cmd, args, { cwd: o.cwd, env: { ...process.env, ...o.env }, stdio: ['ignore', out, 'pipe'] });
  let errText = '', text = '', at = 0, over = false;
  const buf = Buffer.alloc(65536);
  return new Promise((resolve, reject) => {
    const done = () => { if (over) return; over = true; clearTimeout(timer); clearInterval(poll); watcher.close(); closeSync(out); };
    const timer = setTimeout(() => { done(); child.kill('SIGKILL'); reject(new Error(`${name} did not start within ${o.timeoutMs ?? 60000} ms:\n${errText}`)); }, o.timeoutMs ?? 60000);
    // pipewright writes its listening line on stderr (its stdout holds only JSON lines); other servers on stdout.
    child.stderr!.on('data', (c: Buffer) => { errText += c.toString(); look(); });
    // The listening line is looked for on every change of the file (inotify) and every 50 ms.
    const look = () => {
      if (over) return;
      for (let n; (n = readSync(out, buf, 0, buf.length, at)) > 0; at += n) text += buf.toString('utf8', 0, n);
      const m = LISTENING.exec(text) ?? LISTENING.exec(errText);
      if (!m) return;
      done();
      resolve({ name, url: m[1]!, child, startMs: performance.now() - t0 });
    };
    const watcher = watch(logFile, look);
    const poll = setInterval(look, 50);
    child.on('exit', (code) => { done(); reject(new Error(`${name} exited (${code}) before listening:\n${errText}\n${text}`)); });
  });
}

/** Peak resident set size in MB (VmHWM), or NaN where /proc is not available. */
export function peakRssMb(pid: number | undefined): number {
  try {
    const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return Math.round(kb / 1024);
  } catch { return NaN; }
}

export async function stopServer(s: Server): Promise<void> {
  if (s.child.exitCode !== null) return;
  s.child.removeAllListeners('exit'); // the start-up listener, which would report a failure
  const exited = new Promise((r) => s.child.once('exit', r));
  s.child.kill('SIGTERM');
  const t = setTimeout(() => s.child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(t);
}

/** CPU time (user + system) a process has used so far, in µs, from /proc/<pid>/stat; NaN elsewhere. */
export function cpuUs(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields from the 3rd on (the name may hold spaces)
    return ((Number(f[11]) + Number(f[12])) * 1e6) / 100; // utime, stime in clock ticks (USER_HZ = 100 on Linux)
  } catch { return NaN; }
}

/** Wall time of a command to its exit, in ms; throws when it fails. */
export function timeCommand(cmd: string, args: string[], o: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<number> {
  const t0 = performance.now();
  const child = spawn(cmd, args, { cwd: o.cwd, env: { ...process.env, ...o.env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let errText = '';
  child.stderr!.on('data', (c: Buffer) => { errText += c.toString(); });
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => (code === 0 ? resolve(performance.now() - t0) : reject(new Error(`${cmd} ${args.join(' ')} failed (${code}):\n${errText}`))));
  });
}
