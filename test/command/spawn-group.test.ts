// The command's process group is signalled only while its id is surely the command's: never after the
// sweep made when the leader's exit is reported. The leader was reaped by then, the sweep empties the
// group, and its id (the leader's pid) may be given to a new process; a later kill(-pid) would reach
// whatever group leader got that pid (another command, a Postgres backend, a shell's job).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { runningCommands, spawnBounded } from '../../runtime/actions/command/spawn.ts';

const dir = mkdtempSync(join(tmpdir(), 'pw-group-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => { vi.restoreAllMocks(); expect(runningCommands()).toBe(0); });

const env = { PATH: '/usr/bin:/bin' };
let n = 0;
/** A script that starts a process in a session of its own (out of the group, so the sweep spares it)
 *  holding stdout open for 2 s, waits until it has left the group, prints its own pid and exits. */
const leaveHoldingPipes = () => {
  const f = join(dir, `left-${n++}`);
  return ['/bin/sh', '-c', `setsid /bin/sh -c 'touch ${f}; exec sleep 2' & while [ ! -e ${f} ]; do sleep 0.01; done; echo $$`];
};

/** Every signal sent to a process group while `f` runs, by group id. */
async function groupKills<T>(f: () => Promise<T>): Promise<{ result: T; kills: number[] }> {
  const kills: number[] = [];
  const real = process.kill.bind(process);
  vi.spyOn(process, 'kill').mockImplementation((pid: number, signal?: string | number) => {
    if (pid < 0) kills.push(-pid);
    return real(pid, signal);
  });
  return { result: await f(), kills };
}

describe('command process group', () => {
  it('a command that ends on its own: one sweep of its group, when its exit is reported', async () => {
    const { result, kills } = await groupKills(() => spawnBounded(['/bin/sh', '-c', 'echo $$'], { env, maxBytes: 1024 }));
    expect(result).toMatchObject({ code: 0, signal: null });
    expect(kills).toEqual([Number(result.stdout)]);
  });

  it('no signal while the pipes drain after the exit, though a process outside the group holds them', async () => {
    // The result waits for the drain (1 s): that wait is where the group id was signalled again, long
    // after its leader was reaped.
    const t0 = Date.now();
    const { result, kills } = await groupKills(() => spawnBounded(leaveHoldingPipes(), { env, maxBytes: 1024 }));
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    expect(kills).toEqual([Number(result.stdout)]);
  });

  it('an abort during the drain signals nothing', async () => {
    const ac = new AbortController();
    const { result, kills } = await groupKills(() => {
      const p = spawnBounded(leaveHoldingPipes(), { env, maxBytes: 1024, signal: ac.signal });
      setTimeout(() => ac.abort(), 500);
      return p;
    });
    expect(result.code).toBe(0);
    expect(kills).toEqual([Number(result.stdout)]);
  });

  it('a command still running when aborted: its group is killed, then swept once more at its exit', async () => {
    const ac = new AbortController();
    const { result, kills } = await groupKills(() => {
      const p = spawnBounded(['/bin/sh', '-c', 'echo $$; sleep 30'], { env, maxBytes: 1024, signal: ac.signal });
      setTimeout(() => ac.abort(), 300);
      return p;
    });
    expect(result).toMatchObject({ code: null, signal: 'SIGKILL', killed: 'aborted' });
    const pid = Number(result.stdout);
    expect(kills).toEqual([pid, pid]);
  });
});
