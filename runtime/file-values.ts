// Secrets and variables mounted as files, as container platforms give them (Docker and Kubernetes
// secrets): SERVICE__SECRET__<NAME>_FILE=/run/secrets/x sets SERVICE__SECRET__<NAME> to the file's
// text (SERVICE__VAR__<NAME>_FILE likewise). Read when a server starts and on each reload; one
// trailing line ending is dropped (`echo` and editors add one; a value never ends with it on purpose).
// A file that cannot be read stops the start: its path and the reason, never its content.
import { readFileSync } from 'node:fs';
import { StartupError } from './startup-error.ts';

const FILE_SETTING = /^SERVICE__(SECRET|VAR)__(.+)_FILE$/;
/** Larger than any secret or variable; a mistaken path (a log, a disk image) is refused, not read whole. */
const MAX_BYTES = 1024 * 1024;

/** Whether a setting names a file rather than a value (the file's path is not a value to redact). */
export const isFileSetting = (key: string): boolean => FILE_SETTING.test(key);

/** `env` with every `…_FILE` setting replaced by the value it points to (a copy; `env` is left alone). */
export function withFileValues(env: NodeJS.ProcessEnv, read: (path: string) => Buffer = readFileSync): NodeJS.ProcessEnv {
  let out: NodeJS.ProcessEnv | undefined;
  for (const [key, path] of Object.entries(env)) {
    const m = FILE_SETTING.exec(key);
    if (!m || path === undefined) continue;
    const target = `SERVICE__${m[1]}__${m[2]}`;
    if (env[target] !== undefined) throw new StartupError(`${target} and ${key} are both set: set one of them`);
    if (path === '') throw new StartupError(`${key} is empty: set it to the path of the file holding ${target}`);
    let bytes: Buffer;
    try { bytes = read(path); } catch (e) {
      throw new StartupError(`${key}: cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): mount the file or unset ${key}`);
    }
    if (bytes.length > MAX_BYTES) throw new StartupError(`${key}: ${path} is larger than 1 MiB: point it at the file holding ${target} only`);
    out ??= Object.assign(Object.create(null) as NodeJS.ProcessEnv, env);
    out[target] = bytes.toString('utf8').replace(/\r?\n$/, '');
  }
  return out ?? env;
}
