// `command` action: runs a program with arguments, never through a shell unless the config says
// `shell:` (then the script is the config's own text and request values arrive as "$1", "$2", ...).
// The compiler split the command line into words before any value was known (compiler/lower/command.ts).
// Data: { exit_code } or, with output_stdout, { exit_code, stdout, stderr }, on success and on failure.
import { resolve } from 'node:path';
import { managedMode } from '../../values/managed-mode.ts';
import { text } from '../../values/text.ts';
import type { ActionKind, ActionOutcome } from '../types.ts';
import { childEnv } from './env.ts';
import { describeExpectation, exitAccepted } from './exit.ts';
import { spawnBounded, type SpawnResult } from './spawn.ts';

/** Bytes kept of stdout and of stderr; a command writing more is killed and fails. */
export const MAX_OUTPUT_BYTES = 1024 * 1024;
/** Bounds of the argument list (Linux refuses somewhat over 2 MiB of arguments and environment). */
const MAX_ARGS = 4096;
const MAX_ARG_BYTES = 1024 * 1024;
/** How much of stderr a failure message quotes. */
const STDERR_QUOTE = 300;

export const command: ActionKind = async (config, ctx) => {
  const c = (config ?? {}) as Record<string, unknown>;
  const label = typeof c.shell === 'string' ? c.shell : text((c.argv as unknown[] | undefined)?.[0]);
  try {
    if (managedMode(ctx.scope.env.env('SERVICE__MANAGED_MODE'))) return fail(`command "${label}": command actions are turned off in managed mode (SERVICE__MANAGED_MODE)`);
    const argv = typeof c.shell === 'string' ? [c.shell, '-c', text(c.script), 'pipewright', ...args(c.params)] : args(c.argv);
    if (!argv[0]) return fail('command: the program name is empty (is its variable set?)');
    const cwd = c.cwd === undefined || c.cwd === null ? undefined : resolve(text(c.cwd));
    const r = await spawnBounded(argv, { cwd, env: childEnv(c.env), maxBytes: MAX_OUTPUT_BYTES, signal: ctx.signal });
    return outcome(label, r, c, ctx.signal);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    return fail(`command "${label}" could not start: ${msg}`);
  }
};

function args(list: unknown): string[] {
  const items = Array.isArray(list) ? list.map(text) : [];
  if (items.length > MAX_ARGS) throw new Error(`more than ${MAX_ARGS} arguments`);
  let bytes = 0;
  for (const a of items) {
    if (a.includes('\0')) throw new Error('an argument contains a NUL byte');
    bytes += Buffer.byteLength(a);
  }
  if (bytes > MAX_ARG_BYTES) throw new Error(`the arguments exceed ${MAX_ARG_BYTES} bytes`);
  return items;
}

function outcome(label: string, r: SpawnResult, c: Record<string, unknown>, signal?: AbortSignal): ActionOutcome {
  const data = c.output_stdout === true ? { exit_code: r.code, stdout: r.stdout, stderr: r.stderr } : { exit_code: r.code };
  if (r.killed === 'aborted') {
    // The executor's signal carries why: its timeout (a TimeoutError) or the run's cancellation.
    const why = (signal?.reason as Error | undefined)?.name === 'TimeoutError' ? "the action's timeout passed" : 'the run was cancelled';
    return { ok: false, data, error: `command "${label}" was stopped when ${why}; its process group was killed`, failure: { kind: 'transport', cls: 'timeout' } };
  }
  if (r.killed) return fail(`command "${label}" wrote more than ${MAX_OUTPUT_BYTES} bytes to ${r.killed}; its process group was killed`, data);
  if (exitAccepted(c.expect_exit, r.code)) return { ok: true, data };
  const how = r.code === null ? `was killed by ${r.signal}` : `exited with code ${r.code}`;
  const err = r.stderr.trim();
  const quote = err ? `: ${err.length > STDERR_QUOTE ? `…${err.slice(-STDERR_QUOTE)}` : err}` : '';
  return fail(`command "${label}" ${how} (expect_exit: ${describeExpectation(c.expect_exit)})${quote}`, data);
}

const fail = (error: string, data?: unknown): ActionOutcome => ({ ok: false, error, failure: { kind: 'other' }, ...(data !== undefined ? { data } : {}) });
