// A test fork that dies without vitest asking it to is named with its file and how it ended (vitest
// itself only prints "Worker exited unexpectedly"): test/support/fork-exits/.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { describeForkExit } from '../support/fork-exits/global.ts';

describe('fork exit diagnostics', () => {
  it('a fork killed mid-file: its file and SIGKILL are printed beside vitest\'s error', () => {
    const r = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--config', 'test/support/fork-exits/vitest.config.ts'], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, FORCE_COLOR: '0' } });
    const out = r.stdout + r.stderr;
    expect(r.status).toBe(1);
    expect(out).toContain('Worker exited unexpectedly');
    expect(out).toMatch(/\[fork-exits\] vitest fork \d+ running test\/support\/fork-exits\/dies\.fixture\.ts ended by SIGKILL: killed outright/);
  }, 60_000);

  it('says what an exit code or another signal usually means', () => {
    expect(describeForkExit(12, 'test/a.test.ts', 7, null)).toBe('[fork-exits] vitest fork 12 running test/a.test.ts ended with exit code 7 (an exception inside an uncaughtException handler)\n');
    expect(describeForkExit(12, undefined, null, 'SIGSEGV')).toContain('running a test file not yet noted ended by SIGSEGV: a native crash');
  });
});
