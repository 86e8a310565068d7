// The child's environment: a short allow-list from the service's own environment (where programs
// are, locale, time zone, home and temp folders) plus the action's `env`. Nothing else is passed,
// so SERVICE__SECRET__*, database URLs and tokens never reach a command unless the config hands one
// over explicitly (env: { TOKEN: a|secret::TOKEN| }).
import { text } from '../../values/text.ts';

export const INHERITED_ENV = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'TMPDIR'] as const;
const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Bounds: entries and bytes of the action's own environment. */
const MAX_ENTRIES = 256;
const MAX_VALUE_BYTES = 128 * 1024;

export function childEnv(extra: unknown, parent: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = Object.create(null);
  for (const k of INHERITED_ENV) if (typeof parent[k] === 'string') env[k] = parent[k];
  env.PATH ??= DEFAULT_PATH;
  if (extra === undefined || extra === null) return env;
  if (typeof extra !== 'object' || Array.isArray(extra)) throw new Error('command.env must be a mapping of names to values');
  const entries = Object.entries(extra as Record<string, unknown>);
  if (entries.length > MAX_ENTRIES) throw new Error(`command.env: at most ${MAX_ENTRIES} entries`);
  for (const [k, v] of entries) {
    if (!NAME.test(k)) throw new Error(`command.env: "${k}" is not a valid variable name (letters, digits and _, not starting with a digit)`);
    const value = text(v);
    if (value.includes('\0')) throw new Error(`command.env.${k} contains a NUL byte`);
    if (Buffer.byteLength(value) > MAX_VALUE_BYTES) throw new Error(`command.env.${k} is longer than ${MAX_VALUE_BYTES} bytes`);
    env[k] = value;
  }
  return env;
}
