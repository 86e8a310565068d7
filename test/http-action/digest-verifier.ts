// An independent RFC 7616 server-side check for the tests (the http-auth package only does MD5):
// written from the RFC's formulas, sharing no code with the client under test.
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

const HASH: Record<string, string> = { 'MD5': 'md5', 'SHA-256': 'sha256', 'SHA-512-256': 'sha512-256' };

export interface VerifierOptions { realm: string; user: string; pass: string; algorithms: string[]; qop?: string; userhash?: boolean }

export function digestVerifier(o: VerifierOptions) {
  const nonces = new Set<string>();
  return (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const auth = req.headers.authorization;
    if (auth?.startsWith('Digest ') && verify(auth.slice(7), req, body)) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ authenticated: true }));
    }
    const nonce = randomBytes(12).toString('base64');
    nonces.add(nonce);
    const qop = o.qop === undefined ? 'auth' : o.qop;
    res.setHeader('www-authenticate', o.algorithms.map((a) =>
      `Digest realm="${o.realm}", ${qop ? `qop="${qop}", ` : ''}algorithm=${a}, nonce="${nonce}", opaque="op\\"aque"${o.userhash ? ', userhash=true' : ''}`));
    res.writeHead(401, { 'content-type': 'text/plain' });
    res.end('unauthorized');
  };

  function verify(rest: string, req: IncomingMessage, body: Buffer): boolean {
    const p: Record<string, string> = {};
    for (const m of rest.matchAll(/(\w+)=(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g)) p[m[1]] = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3];
    const alg = (p.algorithm ?? 'MD5').replace(/-sess$/i, '');
    if (!HASH[alg] || !nonces.has(p.nonce) || p.uri !== req.url || p.opaque !== 'op"aque' || p.realm !== o.realm) return false;
    const H = (s: string | Buffer) => createHash(HASH[alg]).update(s).digest('hex');
    const expectUser = o.userhash ? H(`${o.user}:${o.realm}`) : o.user;
    if (p.username !== expectUser || (o.userhash && p.userhash !== 'true')) return false;
    let ha1 = H(`${o.user}:${o.realm}:${o.pass}`);
    if (/-sess$/i.test(p.algorithm ?? '')) ha1 = H(`${ha1}:${p.nonce}:${p.cnonce}`);
    const ha2 = H(p.qop === 'auth-int' ? `${req.method}:${p.uri}:${H(body)}` : `${req.method}:${p.uri}`);
    const expected = p.qop ? H(`${ha1}:${p.nonce}:${p.nc}:${p.cnonce}:${p.qop}:${ha2}`) : H(`${ha1}:${p.nonce}:${ha2}`);
    return p.response === expected;
  }
}
