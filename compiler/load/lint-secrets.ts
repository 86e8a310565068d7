// A literal signing/encryption secret too short for its transform: add_jwt refuses it at run time
// (every request would fail with 500), hmac accepts it but it is weaker than its hash, and
// encrypt_value/decrypt_value need exactly 32 bytes. Warned at check time, at the secret itself.
// Secrets with markers (a|secret::…|, a|var::…|) are only known at run time and are not checked.
import { fixedBytes } from '../../runtime/transforms/util/encodings.ts';
import { isObj } from './walk.ts';
import type { Report } from './report.ts';
import type { ConfigPath } from '../source/yaml.ts';

const HMAC_BYTES: Record<string, number> = { sha1: 20, sha256: 32, sha512: 64 };

/** Walks the whole config: transforms sit in post_transforms, nested chains and lookups alike. */
export function lintSecrets(v: unknown, path: ConfigPath, report: Report): void {
  if (Array.isArray(v)) return v.forEach((x, i) => { transform(x, [...path, i], report); lintSecrets(x, [...path, i], report); });
  if (isObj(v)) for (const [k, x] of Object.entries(v)) lintSecrets(x, [...path, k], report);
}

/** A list element `{<op>: {...}}` naming one of the keyed transforms. */
function transform(t: unknown, at: ConfigPath, report: Report): void {
  if (!isObj(t) || Object.keys(t).length !== 1) return;
  const [op, args] = Object.entries(t)[0]!;
  if (!isObj(args)) return;
  const literal = (k: string) => (typeof args[k] === 'string' && !(args[k] as string).includes('a|') ? (args[k] as string) : undefined);
  const where = [...at, op];
  if (op === 'add_jwt') {
    const s = literal('secret');
    if (s !== undefined && Buffer.byteLength(s) < 32) {
      report('warning', [...where, 'secret'], `add_jwt: the secret must be at least 32 bytes (RFC 7518 §3.2), this one has ${Buffer.byteLength(s)}`, 'every run of this transform would fail; use a|secret::NAME| with a random secret of 32 bytes or more', 'value');
    }
  } else if (op === 'hmac') {
    const s = literal('secret');
    const need = HMAC_BYTES[typeof args.algorithm === 'string' ? args.algorithm : 'sha256'];
    if (s !== undefined && need !== undefined && Buffer.byteLength(s) < need) {
      report('warning', [...where, 'secret'], `hmac: a secret shorter than the hash (${need} bytes, RFC 2104 §3) is weak, this one has ${Buffer.byteLength(s)}`, 'use a|secret::NAME| with a longer random secret (a provider-issued webhook secret is fine as is)', 'value');
    }
  } else if (op === 'encrypt_value' || op === 'decrypt_value') {
    const s = literal('secret_key');
    if (s !== undefined && !fixedBytes(s, 32)) {
      report('warning', [...where, 'secret_key'], `${op}: the secret_key must be 32 bytes (64 hex digits, Base64 of 32 bytes, or 32 characters of text)`, 'every run of this transform would fail; use a|secret::NAME|', 'value');
    }
  }
}
