// Checking a presented credential: `Authorization: Bearer <API key or JWT>` or `X-API-Key: <key>`.
// Keys are compared as digests (constant time, any length); JWTs are verified by jose.
import { createHash, timingSafeEqual } from 'node:crypto';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { InboundSettings } from './settings.ts';
import { HMAC_ALGS, hmacKey, isHmacAlg } from '../../values/hmac-key.ts';

const digest = (s: string) => createHash('sha256').update(s).digest();
const ASYM = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

export type Verdict = 'ok' | 'missing' | 'invalid';
export type Verifier = (headers: Record<string, string | string[] | undefined>) => Promise<Verdict>;

export function verifier(s: InboundSettings, extraKeys: string[] = []): Verifier {
  const keys = [...s.apiKeys, ...extraKeys].map(digest);
  const jwks: JWTVerifyGetKey | undefined = s.jwksUrl ? createRemoteJWKSet(new URL(s.jwksUrl)) : undefined;
  // `exp` is required unless the operator turned that off (SERVICE__JWT_REQUIRE_EXP=0): a token
  // without one, once leaked, would open the service forever. Unset in settings made in code: required.
  const claims = {
    ...(s.issuer ? { issuer: s.issuer } : {}), ...(s.audience ? { audience: s.audience } : {}),
    ...(s.requireExp === false ? {} : { requiredClaims: ['exp'] }),
  };
  const isKey = (t: string) => { const d = digest(t); return keys.some((k) => timingSafeEqual(k, d)); };
  const isJwt = async (t: string) => {
    let alg: string | undefined;
    try { alg = decodeProtectedHeader(t).alg; } catch { return false; }
    try {
      // The secret imported once per algorithm (runtime/values/hmac-key.ts), not by jose per request.
      if (s.jwtSecret && isHmacAlg(alg)) await jwtVerify(t, await hmacKey(s.jwtSecret, alg, 'verify'), { ...claims, algorithms: HMAC_ALGS });
      else if (jwks && alg && ASYM.includes(alg)) await jwtVerify(t, jwks, { ...claims, algorithms: ASYM });
      else return false;
      return true;
    } catch { return false; }
  };
  return async (h) => {
    const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
    const auth = one(h.authorization);
    const bearer = auth && /^Bearer\s+(\S+)\s*$/i.exec(auth)?.[1];
    const key = one(h['x-api-key']);
    if (!bearer && !key) return 'missing';
    if (key !== undefined && isKey(key)) return 'ok';
    if (bearer && (isKey(bearer) || await isJwt(bearer))) return 'ok';
    return 'invalid';
  };
}
