// A glob such as `configs/*.yaml` takes in `api.tests.yaml` beside `api.yaml`: `test` runs the config
// (which reads its cases) once; the other commands leave the cases file out and say so on stderr.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const cli = (...args: string[]) => spawnSync(process.execPath, [resolve('bin/pipewright.mjs'), ...args], { encoding: 'utf8', env: { ...process.env, PIPEWRIGHT_FROM_SOURCE: '1' }, timeout: 120_000 });

describe('a test cases file among the configs', () => {
  it('check leaves it out, naming it, and checks the config', () => {
    const r = cli('check', 'fixtures/quickstart.yaml', 'fixtures/quickstart.tests.yaml');
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('note: fixtures/quickstart.tests.yaml is a test cases file, not a config: left out');
    expect(r.stderr).not.toContain('missing required field');
  });

  it('test runs its config once, whether the config is given too or not', () => {
    const both = cli('test', 'fixtures/quickstart.tests.yaml', 'fixtures/quickstart.yaml', '--reporter', 'json');
    const alone = cli('test', 'fixtures/quickstart.tests.yaml', '--reporter', 'json');
    expect(both.status).toBe(0);
    expect(alone.status).toBe(0);
    type Report = { passed: number; failed: number; tests: Array<{ interface: string; ok: boolean }> };
    const a = JSON.parse(both.stdout) as Report;
    const b = JSON.parse(alone.stdout) as Report;
    expect(a.failed).toBe(0);
    expect(a.passed).toBe(7);
    expect(a.tests.map((t) => t.interface)).toEqual(b.tests.map((t) => t.interface));
  });
});
