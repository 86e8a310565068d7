// One bounded child process: argv straight to execve (no shell), stdin closed, stdout and stderr
// collected up to a byte cap. The child leads its own process group (detached), so an abort (the
// executor's signal: the action's timeout, which every command has, or the run's cancellation), an
// output overflow or the end of the command kills the whole group: grandchildren included, nothing is
// left running. Groups still alive when the service exits are killed on the way out.
// The group is signalled only while its id is surely ours: until the sweep made when the leader's exit
// is reported (the same callback that reaped it). After that sweep the group is empty, and its id, the
// leader's pid, may be given to a new process: a later kill(-pid) could reach a stranger's group.
import { spawn } from 'node:child_process';

export interface SpawnLimits {
  cwd?: string;
  env: Record<string, string>;
  maxBytes: number;
  /** The one deadline: aborted when the action's timeout passes or the run is cancelled. */
  signal?: AbortSignal;
}

export interface SpawnResult {
  /** null when the process was killed by a signal. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Why we killed it, if we did. */
  killed?: 'aborted' | 'stdout' | 'stderr';
}

const live = new Set<number>();
let exitHook = false;

function killGroup(pid: number | undefined): void {
  // -0 is this process's own group and -1 every process we may signal: never a command's group.
  if (pid === undefined || !(pid > 1)) return;
  try { process.kill(-pid, 'SIGKILL'); } catch { /* already gone */ }
}

/** How many process groups are running (tests check that nothing is left). */
export const runningCommands = (): number => live.size;

/** Kills every running command's process group (shutdown). */
export function killCommands(): void {
  for (const pid of live) killGroup(pid);
  live.clear();
}

/** How long to wait for the pipes to close after the group is killed (a process that left the group
 *  with setsid may hold them open; we stop reading then). */
const DRAIN_MS = 1000;

export function spawnBounded(argv: string[], o: SpawnLimits): Promise<SpawnResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd: o.cwd, env: o.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true, shell: false, windowsHide: true });
    const pid = child.pid;
    if (pid !== undefined) {
      live.add(pid);
      if (!exitHook) { exitHook = true; process.once('exit', killCommands); }
    }
    const out = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
    const size = { stdout: 0, stderr: 0 };
    let killed: SpawnResult['killed'];
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let done = false;
    /** The group id is ours until the last sweep (per spawn: a later spawn may get the same pid). */
    let ours = pid !== undefined;
    const sweep = (last: boolean) => {
      if (!ours) return;
      killGroup(pid);
      if (last) { ours = false; live.delete(pid!); }
    };
    const stop = (why: NonNullable<SpawnResult['killed']>) => { killed ??= why; sweep(false); };
    const onAbort = () => stop('aborted');
    o.signal?.addEventListener('abort', onAbort, { once: true });
    if (o.signal?.aborted) onAbort();
    for (const name of ['stdout', 'stderr'] as const) {
      child[name].on('data', (b: Buffer) => {
        if (killed) return;
        size[name] += b.length;
        if (size[name] > o.maxBytes) return stop(name);
        out[name].push(b);
      });
    }
    let drain: NodeJS.Timeout | undefined;
    const finish = (err?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(drain);
      o.signal?.removeEventListener('abort', onAbort);
      sweep(true); // only if the leader was never reported gone (a spawn error)
      child.stdout.destroy();
      child.stderr.destroy();
      if (err) return reject(err);
      resolve({ code: exit?.code ?? null, signal: exit?.signal ?? null, stdout: Buffer.concat(out.stdout).toString('utf8'), stderr: Buffer.concat(out.stderr).toString('utf8'), ...(killed ? { killed } : {}) });
    };
    child.on('error', (e) => finish(e));
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // Whatever the command left running in its group goes with it; then the pipes close. The leader
      // was reaped just before this callback, so this is the last moment the group id is known to be
      // ours (a member left alive keeps it from reuse; after SIGKILL to all of them none is).
      sweep(true);
      drain = setTimeout(() => finish(), DRAIN_MS);
    });
    child.on('close', () => finish());
  });
}
