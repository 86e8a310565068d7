// HTTP Digest client (RFC 7616) with node:crypto. The npm helpers we looked at are MD5-only or
// reject RFC 7616 parameters, so this answers one challenge per request: nc is always 00000001
// with a fresh cnonce (no nonce caching across runs; costs one extra round trip per call).
import { createHash, randomBytes } from 'node:crypto';
import { parseChallenges, type Challenge } from './auth-challenge.ts';
import { deriveFrom } from '../../values/derived-secrets.ts';

// Strongest first; `-sess` variants hash the nonces into HA1.
const ALGORITHMS: Record<string, string> = { 'SHA-512-256': 'sha512-256', 'SHA-256': 'sha256', MD5: 'md5' };
const RANK = Object.keys(ALGORITHMS);

export interface DigestRequest { user: string; pass: string; method: string; uri: string; body?: Buffer; cnonce?: string }

/** Pick the strongest Digest challenge we can answer from a (possibly repeated) WWW-Authenticate value. */
export function pickDigestChallenge(wwwAuthenticate: string | undefined): Challenge | undefined {
  const usable = parseChallenges(wwwAuthenticate ?? '')
    .filter((c) => c.scheme.toLowerCase() === 'digest' && c.params.realm !== undefined && c.params.nonce)
    .filter((c) => hashName(c) !== undefined && (c.params.qop === undefined || chooseQop(c.params.qop) !== undefined));
  return usable.sort((a, b) => RANK.indexOf(baseAlg(a)) - RANK.indexOf(baseAlg(b)))[0];
}

/** The Authorization header value answering `ch`. */
export function digestAuthorization(ch: Challenge, r: DigestRequest): string {
  const p = ch.params;
  const h = (s: string | Buffer) => createHash(hashName(ch)!).update(s).digest('hex');
  const sess = /-sess$/i.test(p.algorithm ?? '');
  const qop = p.qop === undefined ? undefined : chooseQop(p.qop)!;
  const cnonce = r.cnonce ?? randomBytes(16).toString('hex');
  const nc = '00000001';
  let ha1 = h(`${r.user}:${p.realm}:${r.pass}`);
  if (sess) ha1 = h(`${ha1}:${p.nonce}:${cnonce}`);
  const ha2 = h(qop === 'auth-int' ? `${r.method}:${r.uri}:${h(r.body ?? '')}` : `${r.method}:${r.uri}`);
  const response = qop ? h(`${ha1}:${p.nonce}:${nc}:${cnonce}:${qop}:${ha2}`) : h(`${ha1}:${p.nonce}:${ha2}`);

  const userhash = p.userhash?.toLowerCase() === 'true';
  const parts = [userName(userhash ? h(`${r.user}:${p.realm}`) : r.user), `realm=${q(p.realm)}`, `uri=${q(r.uri)}`];
  if (p.algorithm) parts.push(`algorithm=${p.algorithm}`);
  parts.push(`nonce=${q(p.nonce)}`);
  // qop and nc are unquoted tokens per RFC 7616; some servers reject the quoted form.
  if (qop) parts.push(`nc=${nc}`, `cnonce=${q(cnonce)}`, `qop=${qop}`);
  deriveFrom([r.user, r.pass], response); // redacted wherever it is echoed, when built from a secret
  parts.push(`response=${q(response)}`);
  if (p.opaque !== undefined) parts.push(`opaque=${q(p.opaque)}`);
  if (userhash) parts.push('userhash=true');
  return `Digest ${parts.join(', ')}`;
}

function baseAlg(c: Challenge): string {
  return (c.params.algorithm ?? 'MD5').toUpperCase().replace(/-SESS$/, '');
}
function hashName(c: Challenge): string | undefined {
  return ALGORITHMS[baseAlg(c)];
}
function chooseQop(offered: string): 'auth' | 'auth-int' | undefined {
  const list = offered.split(',').map((s) => s.trim().toLowerCase());
  return list.includes('auth') ? 'auth' : list.includes('auth-int') ? 'auth-int' : undefined;
}
function q(s: string): string {
  return `"${s.replace(/[\\"]/g, '\\$&')}"`;
}
// Non-ASCII user names go in `username*` (RFC 8187 ext-value), as RFC 7616 §3.4.4 requires.
function userName(u: string): string {
  if (/^[\x20-\x7e]*$/.test(u)) return `username=${q(u)}`;
  return `username*=UTF-8''${encodeURIComponent(u).replace(/['()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())}`;
}
