// A glob such as `configs/*.yaml` takes in `api.tests.yaml` beside `api.yaml`: `test` runs the config
// (which reads its cases) once; the other commands leave the cases file out and say so on stderr.
// The CLI's main(argv) in this process: what is tested is how it reads its arguments, not its start.
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/test-cli.ts';

describe('a test cases file among the configs', () => {
  it('check leaves it out, naming it, and checks the config', async () => {
    const r = await runCli(['check', 'fixtures/quickstart.yaml', 'fixtures/quickstart.tests.yaml']);
    expect(r.code).toBe(0);
    expect(r.err).toContain('note: fixtures/quickstart.tests.yaml is a test cases file, not a config: left out');
    expect(r.err).not.toContain('missing required field');
  });

  it('test runs its config once, whether the config is given too or not', async () => {
    const both = await runCli(['test', 'fixtures/quickstart.tests.yaml', 'fixtures/quickstart.yaml', '--reporter', 'json']);
    const alone = await runCli(['test', 'fixtures/quickstart.tests.yaml', '--reporter', 'json']);
    expect(both.code).toBe(0);
    expect(alone.code).toBe(0);
    type Report = { passed: number; failed: number; tests: Array<{ interface: string; ok: boolean }> };
    const a = JSON.parse(both.out) as Report;
    const b = JSON.parse(alone.out) as Report;
    expect(a.failed).toBe(0);
    expect(a.passed).toBe(7);
    expect(a.tests.map((t) => t.interface)).toEqual(b.tests.map((t) => t.interface));
  });
});
