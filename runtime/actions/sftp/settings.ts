// An sftp action's block after interpolation, checked once per attempt: every field is request-fed
// (markers), so the checks the schema cannot make on a marker happen here, with the field's name.
import { boundedDurationMs } from '../../values/bounds.ts';
import { portNumber, PORT_RULE } from '../../values/port.ts';
import { flagOn } from '../targets.ts';

export const OPERATIONS = ['list', 'get', 'put', 'delete', 'rename', 'mkdir'] as const;
export type Operation = (typeof OPERATIONS)[number];

export interface SftpSettings {
  host: string;
  port: number;
  user: string;
  password?: string;
  privateKey?: string;
  passphrase?: string;
  /** The expected `SHA256:<base64>` fingerprint; undefined when accept_any_host_key is true. */
  hostKey?: string;
  /** Connect wait and idle limit (spec Limits: 30 s). */
  timeoutMs: number;
  operation: Operation;
  path: string;
  to?: string;
  content?: string;
  encoding: 'text' | 'base64';
}

export class SftpConfigError extends Error {}

/** What ssh-keygen -lf prints for a key: SHA256, then 43 base64 characters (no padding). */
const FINGERPRINT = /^SHA256:[A-Za-z0-9+/]{43}$/;
const DEFAULT_TIMEOUT_MS = 30_000;

export function sftpSettings(v: unknown): SftpSettings {
  const c = (v ?? {}) as Record<string, unknown>;
  const str = (f: string, required = false): string | undefined => {
    const x = c[f];
    if (x === undefined || x === null || (x === '' && !required)) {
      if (required) throw new SftpConfigError(`sftp: "${f}" is required`);
      return undefined;
    }
    if (typeof x !== 'string' || (required && !x)) throw new SftpConfigError(`sftp: "${f}" must be ${required ? 'non-empty ' : ''}text`);
    return x;
  };
  const operation = str('operation', true) as Operation;
  if (!OPERATIONS.includes(operation)) throw new SftpConfigError(`sftp: "operation" must be one of ${OPERATIONS.join(', ')}`);
  const port = c.port === undefined || c.port === null || c.port === '' ? 22 : portNumber(c.port);
  if (port === undefined) throw new SftpConfigError(`sftp: "port" must be ${PORT_RULE}`);
  const encoding = str('encoding') ?? 'text';
  if (encoding !== 'text' && encoding !== 'base64') throw new SftpConfigError('sftp: "encoding" must be text or base64');
  const s: SftpSettings = { host: str('host', true)!, port, user: str('user', true)!, timeoutMs: timeout(c.timeout), operation, path: str('path', true)!, encoding };
  for (const [field, key] of [['password', 'password'], ['private_key', 'privateKey'], ['private_key_passphrase', 'passphrase'], ['to', 'to'], ['content', 'content']] as const) {
    const x = field === 'content' ? c.content : str(field);
    if (field === 'content' && x !== undefined && x !== null && typeof x !== 'string') throw new SftpConfigError('sftp: "content" must be text (base64 with encoding: base64)');
    if (typeof x === 'string') s[key] = x;
  }
  if (!s.password && !s.privateKey) throw new SftpConfigError('sftp: set "password" or "private_key" (the key is preferred)');
  if (!flagOn(c.accept_any_host_key)) {
    const hk = str('host_key')?.trim();
    if (!hk) throw new SftpConfigError('sftp: "host_key" is required unless accept_any_host_key is true');
    if (!FINGERPRINT.test(hk)) throw new SftpConfigError('sftp: "host_key" must be the SHA256:<base64> fingerprint `ssh-keygen -lf` prints (43 characters after SHA256:)');
    s.hostKey = hk;
  }
  if (operation === 'rename' && !s.to) throw new SftpConfigError('sftp: rename needs "to" (the new path)');
  if (operation === 'put' && s.content === undefined) throw new SftpConfigError('sftp: put needs "content"');
  return s;
}

function timeout(v: unknown): number {
  let ms: number | undefined;
  try { ms = boundedDurationMs(v === '' ? undefined : v, 'timeout'); } catch (e) { throw new SftpConfigError(`sftp: "timeout": ${(e as Error).message}`); }
  if (ms === 0) throw new SftpConfigError('sftp: "timeout" must be more than 0');
  return ms ?? DEFAULT_TIMEOUT_MS;
}
