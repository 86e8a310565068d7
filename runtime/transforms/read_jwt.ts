// read_jwt: {key, token, secret?} -> {header, payload, verified} under `key`.
// With `secret` (UTF-8, HS256/384/512) the signature, exp and nbf are checked (jose) and a bad
// token fails; verified is true. Without it the token is only decoded: nothing proves who made
// it, so verified is false and the payload must not be trusted for access decisions.
import { decodeJwt, decodeProtectedHeader, errors, jwtVerify } from 'jose';
import { TransformError } from './types.ts';
import { HMAC_ALGS, hmacKey, isHmacAlg } from '../values/hmac-key.ts';
import { nowMs } from './util/clock.ts';
import { config, text, writeKey } from './util/fields.ts';

const W = 'read_jwt';

export async function run(data: unknown, args: unknown): Promise<unknown> {
  const a = config(args, W);
  const token = text(a, 'token', W, { nonEmpty: true }).trim().replace(/^Bearer\s+/i, '');
  if (a.secret === undefined) {
    try {
      return writeKey(data, a, { header: decodeProtectedHeader(token), payload: decodeJwt(token), verified: false }, W);
    } catch (e) {
      if (e instanceof TransformError) throw e;
      throw new TransformError(`${W}: \`token\` is not a JWT`);
    }
  }
  const secretText = text(a, 'secret', W, { nonEmpty: true });
  try {
    // The secret imported once per algorithm (runtime/values/hmac-key.ts); a token whose header
    // cannot be read or names another algorithm gets the raw bytes, so jose says why as before.
    let alg: unknown;
    try { alg = decodeProtectedHeader(token).alg; } catch { /* reported by jwtVerify */ }
    const secret = isHmacAlg(alg) ? await hmacKey(secretText, alg, 'verify') : Buffer.from(secretText, 'utf8');
    const r = await jwtVerify(token, secret, { algorithms: HMAC_ALGS, currentDate: new Date(nowMs()) });
    return writeKey(data, a, { header: r.protectedHeader, payload: r.payload, verified: true }, W);
  } catch (e) {
    if (e instanceof TransformError) throw e;
    if (e instanceof errors.JWTExpired) throw new TransformError(`${W}: the token has expired`);
    if (e instanceof errors.JWSSignatureVerificationFailed) throw new TransformError(`${W}: the token's signature does not match the secret`);
    if (e instanceof errors.JOSEError) throw new TransformError(`${W}: invalid token: ${e.message}`);
    throw new TransformError(`${W}: \`token\` is not a JWT`);
  }
}
