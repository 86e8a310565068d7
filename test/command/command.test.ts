// The command action in both paths, with real programs: request values with shell metacharacters stay
// data (with and without a shell; the marker files never appear), exit-code rules, the timeout kills
// the whole process group (grandchildren too), the output cap, retries of a failing command (every
// failure of a non-HTTP action is retried), the child's environment, managed mode, load-time refusals.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runningCommands } from '../../runtime/actions/command/spawn.ts';
import { compileConfig } from '../../compiler/project.ts';
import { MODES, runner } from '../database/helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'pw-cmd-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => expect(runningCommands()).toBe(0));

const HOSTILE = [
  `'; DROP TABLE users; --`,
  `$(touch ${dir}/marker-subst)`,
  `\`touch ${dir}/marker-backtick\``,
  `x\ntouch ${dir}/marker-newline`,
  `"; touch ${dir}/marker-dq; echo "`,
  `'; touch ${dir}/marker-sq; echo '`,
  `$HOME \${PATH} * ? ~ & | > ${dir}/marker-redirect`,
];

/** Running: exists and is not a zombie waiting for its reaper (state Z in /proc/<pid>/stat). */
const running = (pid: number) => {
  try { return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8')); } catch { return false; }
};
/** Whether the process is still running after a short grace (SIGKILL is asynchronous). */
async function alive(pid: number): Promise<boolean> {
  for (let i = 0; i < 20 && running(pid); i++) await new Promise((res) => setTimeout(res, 50));
  return running(pid);
}

const cfg = (action: string, extra = '') => `
interfaces:
  c:
    show_error_detail: true
    actions:
      - name: Cmd
${action.split('\n').map((l) => `        ${l}`).join('\n')}
${extra}`;

describe.each(MODES)('command (%s)', (mode) => {
  const run = async (yaml: string, body?: unknown) => (await runner(`cmd-${mode}.yaml`, yaml, mode))('c', { body });

  it('runs a program with arguments; output_stdout gives exit_code, stdout and stderr', async () => {
    const r = await run(cfg(`command: { run: '/bin/echo "hello  world" a|body::name|!' }\noutput_stdout: true`), { name: 'Ada Lovelace' });
    expect(r.response.status).toBe(200);
    expect(r.response.body).toEqual({ Cmd: { exit_code: 0, stdout: 'hello  world Ada Lovelace!\n', stderr: '' } });
    const quiet = await run(cfg(`command: { run: /bin/true }`));
    expect(quiet.response.body).toEqual({ Cmd: { exit_code: 0 } });
  });

  it.each(HOSTILE)('a request value stays one argument without a shell: %j', async (v) => {
    const r = await run(cfg(`command: { run: '/usr/bin/printf %s a|body::v|', cwd: ${JSON.stringify(dir)} }\noutput_stdout: true`), { v });
    expect((r.response.body as any).Cmd.stdout).toBe(v);
    expect(readdirSync(dir)).toEqual([]);
  });

  it.each(HOSTILE)('with shell: true a request value is a positional parameter, never script text: %j', async (v) => {
    const r = await run(cfg(`command:\n  shell: true\n  cwd: ${JSON.stringify(dir)}\n  run: 'printf "[%s]" a|body::v|; printf "<%s>" "in quotes: a|body::v|"'\noutput_stdout: true`), { v });
    expect((r.response.body as any).Cmd.stdout).toBe(`[${v}]<in quotes: ${v}>`);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('cwd from a config value (an env marker) is where the program runs', async () => {
    process.env.PW_CMD_TEST_DIR = dir;
    try {
      const r = await run(cfg(`command: { run: /bin/pwd, cwd: 'a|env::PW_CMD_TEST_DIR|' }\noutput_stdout: true`));
      expect((r.response.body as any).Cmd.stdout).toBe(`${dir}\n`);
    } finally { delete process.env.PW_CMD_TEST_DIR; }
  });

  it('exit codes: expect_exit as a number, a list, any; unset means 0', async () => {
    const exit3 = (expect?: string) => run(cfg(`command: { run: "/bin/sh -c 'echo oops >&2; exit 3'" }${expect ? `\nexpect_exit: ${expect}` : ''}`));
    expect((await exit3('3')).response.status).toBe(200);
    expect((await exit3('[0, 3]')).response.body).toEqual({ Cmd: { exit_code: 3 } });
    expect((await exit3('any')).response.status).toBe(200);
    const failed = await exit3();
    expect(failed.response.status).toBe(500);
    expect((failed.response.body as any).error).toMatchObject({ message: 'action "Cmd" failed', action: 'Cmd', detail: 'command "/bin/sh" exited with code 3 (expect_exit: 0): oops' });
    const never = await exit3('"3"');
    expect((never.response.body as any).error.detail).toBe('command "/bin/sh" exited with code 3 (expect_exit: "3", which never matches): oops');
  });

  it('a failed command keeps its data for a run_when_failed branch', async () => {
    const r = await run(cfg(`command: { run: "/bin/sh -c 'echo partial; exit 2'" }\noutput_stdout: true`, `      - name: After\n        run_when_failed: [Cmd]\n        input: a|Cmd::body->stdout|`));
    expect(r.state.steps.Cmd).toMatchObject({ outcome: 'failed', data: { exit_code: 2, stdout: 'partial\n', stderr: '' } });
  });

  it('the timeout kills the whole process group: no grandchild is left', async () => {
    const pidfile = join(dir, `pids-${mode}`);
    const r = await run(cfg(`command: { shell: true, run: 'sleep 30 & echo $! > a|body::f|; (sleep 31 &); sleep 32' }\ntimeout: 400`), { f: pidfile });
    expect(r.response.status).toBe(504);
    expect((r.response.body as any).error.detail).toMatch(/^command "\/bin\/sh" was stopped when the action's timeout passed; its process group was killed$/);
    const pid = Number(readFileSync(pidfile, 'utf8'));
    rmSync(pidfile);
    expect(pid).toBeGreaterThan(1);
    expect(await alive(pid)).toBe(false);
  });

  it('what a finished command left running in its group is killed', async () => {
    const r = await run(cfg(`command: { shell: true, run: 'sleep 30 >/dev/null 2>&1 & echo $!' }\noutput_stdout: true`));
    const pid = Number((r.response.body as any).Cmd.stdout);
    expect(pid).toBeGreaterThan(1);
    expect(await alive(pid)).toBe(false);
  });

  it('stdout above 1 MiB kills the command and fails the action', async () => {
    const r = await run(cfg(`command: { run: "/usr/bin/head -c 3000000 /dev/zero" }\noutput_stdout: true`));
    expect(r.response.status).toBe(500);
    expect((r.response.body as any).error.detail).toBe('command "/usr/bin/head" wrote more than 1048576 bytes to stdout; its process group was killed');
  });

  it('a failing command is retried: every attempt runs it (non-HTTP rule), then the action fails', async () => {
    const counter = join(dir, `count-${mode}`);
    const r = await run(cfg(`command: { shell: true, run: 'echo x >> a|body::f|; exit 1' }\nretry: { attempts: 3, delay: 0, jitter: none }`), { f: counter });
    expect(r.response.status).toBe(500);
    expect(r.state.steps.Cmd!.attempts).toBe(3);
    expect(readFileSync(counter, 'utf8')).toBe('x\nx\nx\n');
    rmSync(counter);
  });

  it("the service's environment does not reach the command; env entries do", async () => {
    process.env.SERVICE__SECRET__CMD_TEST = 'do-not-leak-this-value';
    try {
      const r = await run(cfg(`command: { run: /usr/bin/env, env: { GREETING: "hi a|body::who|", N: 3 } }\noutput_stdout: true`), { who: 'there' });
      const out = (r.response.body as any).Cmd.stdout as string;
      expect(out).toContain('GREETING=hi there\n');
      expect(out).toContain('N=3\n');
      expect(out).toMatch(/^PATH=/m);
      expect(out).not.toContain('do-not-leak-this-value');
      expect(out).not.toContain('SERVICE__');
    } finally { delete process.env.SERVICE__SECRET__CMD_TEST; }
  });

  it('a program that does not exist fails clearly; managed mode turns the kind off', async () => {
    const missing = await run(cfg(`command: { run: /no/such/program }`));
    expect((missing.response.body as any).error.detail).toMatch(/^command "\/no\/such\/program" could not start: spawn \/no\/such\/program ENOENT/);
    process.env.SERVICE__MANAGED_MODE = '1';
    try {
      const r = await run(cfg(`command: { run: /bin/true }`));
      expect((r.response.body as any).error.detail).toBe('command "/bin/true": command actions are turned off in managed mode (SERVICE__MANAGED_MODE)');
    } finally { delete process.env.SERVICE__MANAGED_MODE; }
  });
});

describe('command at load', () => {
  const errors = (action: string) => {
    const c = compileConfig('load.yaml', cfg(action));
    return c.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.line}:${d.col} ${d.message}`);
  };
  it('a request value cannot choose the program', () => {
    expect(errors(`command: { run: 'a|body::prog| -x' }`)).toEqual(['7:20 a|body::prog| cannot choose the program to run']);
  });
  it('a request or action value cannot choose the working directory; config values can', () => {
    expect(errors(`command: { run: /bin/pwd, cwd: 'a|body::dir|' }`)).toEqual(['7:35 a|body::dir| cannot choose the working directory']);
    expect(errors(`command: { run: /bin/pwd, cwd: '/srv/a|params::d|' }`)).toEqual(['7:35 a|params::d| cannot choose the working directory']);
    expect(errors(`command: { run: /bin/pwd, cwd: 'a|var::DIR|/x', shell: true }`)).toEqual([]);
    expect(errors(`command: { run: /bin/pwd, cwd: 'a|env::HOME|' }`)).toEqual([]);
  });
  it('a marker inside single quotes of a shell script is refused', () => {
    expect(errors(`command: { shell: true, run: "echo 'a|body::x|'" }`)).toEqual(["7:33 a|body::x| is inside single quotes, where the shell cannot expand its parameter"]);
  });
  it('an unclosed quote is refused', () => {
    expect(errors(`command: { run: "echo 'oops" }`)).toEqual(["7:20 unclosed ' in command.run"]);
  });
  it('expect_exit and output_stdout on another kind are refused', () => {
    expect(errors(`url: http://example.test/\nexpect_exit: 0`)).toEqual(['8:9 expect_exit only applies to command actions (action "Cmd" is of kind http)']);
  });
});

it('managed mode stops `serve` of a config with a command action, naming it', async () => {
  const { spawnSync } = await import('node:child_process');
  const r = spawnSync(process.execPath, ['bin/pipewright.mjs', 'serve', 'fixtures/commands.yaml', '--port', '0'], { env: { ...process.env, SERVICE__MANAGED_MODE: '1' }, encoding: 'utf8', timeout: 60_000 });
  expect(r.status).toBe(1);
  expect(r.stderr).toBe('pipewright: commands.echo: action "Echo" is a command action, which managed mode (SERVICE__MANAGED_MODE) turns off\n');
}, 60_000);

it('no marker file was ever created', () => {
  for (const f of ['marker-subst', 'marker-backtick', 'marker-newline', 'marker-dq', 'marker-sq', 'marker-redirect']) expect(existsSync(join(dir, f))).toBe(false);
  expect(existsSync(join(process.cwd(), 'x'))).toBe(false);
});

describe('command words', () => {
  it('quotes group, empty quotes give an empty argument, markers never split', async () => {
    for (const mode of MODES) {
      const r = await (await runner(`words-${mode}.yaml`, cfg(`command: { run: "/usr/bin/printf '[%s]' '' \\"two words\\" a\\\\ b x'y'z a|body::v| pre-a|body::n|" }\noutput_stdout: true`), mode))('c', { body: { v: 'one arg with spaces', n: 7 } });
      expect((r.response.body as any).Cmd.stdout).toBe('[][two words][a b][xyz][one arg with spaces][pre-7]');
    }
  });
});
