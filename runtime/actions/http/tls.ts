// TLS settings of an HttpRequest → node:tls options for undici's connector.
//
// `ca` follows curl --cacert and Node's own `ca`: it REPLACES the bundled roots, so a config can pin
// a private CA. `root_certificates` follows reqwest's add_root_certificate: the certificates are
// trusted IN ADDITION to the bundled roots (or to `ca` when both are set). Two fields, two meanings,
// instead of two spellings of one. Note: Node's bundled roots are `tls.rootCertificates`; extra CAs
// from NODE_EXTRA_CA_CERTS are not part of that list, so a pool with root_certificates loses them.
import { createHash, X509Certificate } from 'node:crypto';
import { rootCertificates } from 'node:tls';
import { TextMemo } from '../../values/text-memo.ts';

export interface TlsOptions { rejectUnauthorized?: boolean; ca?: string[] }

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

// The options made from each distinct setting, and the key their connection pool is found by:
// making them per request (parsing each certificate, then hashing a CA list that can be the whole
// root store for the pool's key) cost 0.1–0.8 ms a request in process.
const made = new TextMemo<TlsOptions | undefined>(100);
const keys = new WeakMap<TlsOptions, string>();

/** undefined when no TLS setting is present (undici's defaults, shared pool). Throws on bad PEM
 *  (every time: a refused setting is not remembered). The same settings give the same object. */
export function tlsOptions(config: Record<string, unknown>): TlsOptions | undefined {
  const invalid = config.accept_invalid_certs, ca = config.ca, roots = config.root_certificates;
  if (!isSet(invalid) && !isSet(ca) && !isSet(roots)) return undefined;
  // Only settings of the shapes a config gives are remembered (JSON would write NaN as null, and a
  // remembered "not set" must not answer for a value that make() refuses).
  if (!plain(invalid) || !plain(ca) || !(plain(roots) || (Array.isArray(roots) && roots.every(plain)))) return make(config);
  const key = JSON.stringify([invalid ?? null, ca ?? null, roots ?? null]);
  return made.get(key, () => {
    const options = make(config);
    if (options) keys.set(options, createHash('sha256').update(key).digest('base64'));
    return options;
  });
}

/** What tells the connection pools of two TLS settings apart: a digest of the settings as written
 *  (two settings that differ in any character get pools of their own, as before). */
export function tlsKey(t: TlsOptions): string {
  return keys.get(t) ?? createHash('sha256').update(JSON.stringify(t)).digest('base64');
}

function make(config: Record<string, unknown>): TlsOptions | undefined {
  const out: TlsOptions = {};
  const invalid = config.accept_invalid_certs;
  if (invalid === true || invalid === 'true') out.rejectUnauthorized = false;
  else if (invalid !== undefined && invalid !== null && invalid !== false && invalid !== 'false') {
    throw new Error('http.accept_invalid_certs must be a boolean');
  }
  const pinned = isSet(config.ca) ? pems(config.ca, 'http.ca') : undefined;
  const roots = config.root_certificates;
  if (isSet(roots) && !Array.isArray(roots)) throw new Error('http.root_certificates must be an array of PEM strings');
  const extra = ((roots as unknown[] | undefined) ?? []).filter(isSet)
    .flatMap((r, i) => pems(r, `http.root_certificates[${i}]`));
  if (pinned || extra.length) out.ca = [...(pinned ?? rootCertificates), ...extra];
  return Object.keys(out).length ? out : undefined;
}

/** Every certificate of a PEM string (a bundle may hold several), each checked by parsing it, so a
 *  typo fails the action with a clear message instead of an opaque handshake error later. */
function pems(v: unknown, field: string): string[] {
  if (typeof v !== 'string') throw new Error(`${field} must be a PEM string`);
  const blocks = v.match(PEM_BLOCK) ?? [];
  if (!blocks.length) throw new Error(`${field} contains no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  for (const b of blocks) {
    try { new X509Certificate(b); } catch (e) { throw new Error(`${field} is not a valid certificate: ${(e as Error).message}`); }
  }
  return blocks;
}

/** A value JSON writes as itself: a string, a boolean, null or absent. */
const plain = (v: unknown): boolean => v === undefined || v === null || typeof v === 'string' || typeof v === 'boolean';

function isSet(v: unknown): boolean {
  return v !== undefined && v !== null;
}
