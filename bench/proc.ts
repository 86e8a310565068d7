// Child processes of the benchmark: start one, wait for its "listening on <url>" line, read its
// peak resident memory (Linux VmHWM), stop it.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface Server { name: string; url: string; child: ChildProcess; startMs: number }

export function startServer(name: string, cmd: string, args: string[], o: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): Promise<Server> {
  const t0 = performance.now();
  const child = spawn(cmd, args, { cwd: o.cwd, env: { ...process.env, ...o.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '', errText = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`${name} did not start within ${o.timeoutMs ?? 60000} ms:\n${errText}`)); }, o.timeoutMs ?? 60000);
    child.stderr!.on('data', (c: Buffer) => { errText += c.toString(); });
    const onOut = (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      // From here its lines (one per request) are drained unread: kept, they grew this process by
      // tens of MB per round, in the process that also drives the load.
      child.stdout!.off('data', onOut).on('data', () => {});
      out = '';
      resolve({ name, url: m[1]!, child, startMs: performance.now() - t0 });
    };
    child.stdout!.on('data', onOut);
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`${name} exited (${code}) before listening:\n${errText}`)); });
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
