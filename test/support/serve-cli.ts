// `pipewright serve` started as a user starts it, only to see whether it starts: resolves with
// 'listening' (the process is then killed) or with its exit code and stderr. `stops` gets the kill.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

export type ServeOutcome = { code: number | null; err: string } | 'listening';

/** The environment without SERVICE__* settings (and `drop`): a test states each setting it means. */
export const cleanEnv = (drop: string[] = []): Record<string, string> =>
  Object.fromEntries(Object.entries(process.env).filter(([k, v]) => v !== undefined && !k.startsWith('SERVICE__') && !drop.includes(k))) as Record<string, string>;

export function serveOutcome(file: string, args: string[], env: Record<string, string>, stops: Array<() => unknown>): Promise<ServeOutcome> {
  const child = spawn(process.execPath, [resolve('bin/pipewright.mjs'), 'serve', file, '--port', '0', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  stops.push(() => child.kill('SIGKILL'));
  return new Promise((done) => {
    let err = '';
    // The listening line is on stderr (stdout holds only JSON lines, drained).
    child.stdout!.resume();
    child.stderr!.on('data', (d) => { err += d; if (err.includes('listening on')) { child.kill('SIGKILL'); done('listening'); } });
    child.on('exit', (code) => done({ code, err }));
  });
}
