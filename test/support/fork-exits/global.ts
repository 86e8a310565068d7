// vitest.config.ts globalSetup, in vitest's main process: when a test fork ends without vitest having
// asked it to (vitest only says "Worker exited unexpectedly", naming neither the file nor how), prints
// the fork's pid, its test file, its exit code or signal, and what that signal usually means.
import { ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { forkNotes } from './notes.ts';

const HINTS: Record<string, string> = {
  SIGKILL: "killed outright: the kernel's OOM killer (see dmesg) or another process's kill (a pid it held may have been reused)",
  SIGSEGV: 'a native crash in node (a V8 or node bug, or a stack overflow outside V8\'s checks)',
  SIGBUS: 'a native crash in node',
  SIGABRT: 'node aborted (a failed internal check or a fatal V8 error; its message is in the output above)',
  SIGILL: 'a native crash in node',
  SIGTERM: 'terminated by another process (vitest stops forks with SIGTERM only after asking them)',
  SIGHUP: 'its terminal or session went away',
  SIGINT: 'interrupted',
};

const isFork = (c: ChildProcess): boolean => c.spawnargs.some((a) => a.includes('workers/forks'));
const asked = new WeakSet<ChildProcess>();

export function describeForkExit(pid: number | undefined, file: string | undefined, code: number | null, signal: string | null): string {
  const how = signal ? `by ${signal}: ${HINTS[signal] ?? 'a signal'}` : `with exit code ${code}${code === 7 ? ' (an exception inside an uncaughtException handler)' : code === 134 ? ' (abort)' : ''}`;
  return `[fork-exits] vitest fork ${pid ?? '?'} running ${file ?? 'a test file not yet noted'} ended ${how}\n`;
}

export default function setup(): () => void {
  const notes = forkNotes(process.pid);
  const { emit, kill } = ChildProcess.prototype;
  ChildProcess.prototype.kill = function (this: ChildProcess, ...args: Parameters<ChildProcess['kill']>) {
    if (isFork(this)) asked.add(this);
    return kill.apply(this, args);
  };
  ChildProcess.prototype.emit = function (this: ChildProcess, event: string | symbol, ...args: unknown[]) {
    if (event === 'exit' && isFork(this) && !asked.has(this)) {
      const [code, signal] = args as [number | null, NodeJS.Signals | null];
      let file: string | undefined;
      try { file = readFileSync(`${notes}/${this.pid}`, 'utf8'); } catch { /* not noted yet */ }
      process.stderr.write(describeForkExit(this.pid, file, code, signal));
    }
    return (emit as (this: ChildProcess, event: string | symbol, ...args: unknown[]) => boolean).call(this, event, ...args);
  } as ChildProcess['emit'];
  return () => {
    ChildProcess.prototype.kill = kill;
    ChildProcess.prototype.emit = emit;
    rmSync(notes, { recursive: true, force: true });
  };
}
