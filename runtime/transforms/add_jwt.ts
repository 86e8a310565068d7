// add_jwt: {key, secret, data, exp} -> an HS256 JWT (jose) under `key`. Claims: `data` as an
// object of claims, a list of field names copied from the input record (absent ones left out),
// or "all" (every field of the input). `iat` is now unless given; `exp` (1h, 1d, 30m, or ms) sets
// expiry from now. The secret must be at least 32 bytes: RFC 7518 3.2 requires a key as long as
// the hash for HS256, and a short one can be brute-forced offline from any issued token.
import { SignJWT } from 'jose';
import { durationMs } from '../values/duration.ts';
import { durationProblem } from '../values/bounds.ts';
import { TransformError } from './types.ts';
import { hmacKey } from '../values/hmac-key.ts';
import { deriveFrom } from '../values/derived-secrets.ts';
import { nowMs } from './util/clock.ts';
import { config, text, writeKey } from './util/fields.ts';
import { isObject, kindOf, setOwn, type Rec } from './util/path.ts';

const W = 'add_jwt';

function claimsOf(d: unknown, input: unknown): Rec {
  if (isObject(d)) return d;
  if (d !== 'all' && !Array.isArray(d)) throw new TransformError(`${W}: \`data\` must be an object of claims, a list of field names or "all"`);
  if (!isObject(input)) throw new TransformError(`${W}: taking claims from the input needs an object, got ${kindOf(input)}`);
  if (d === 'all') return input;
  const out: Rec = {};
  for (const f of d) {
    if (typeof f !== 'string') throw new TransformError(`${W}: \`data\` field names must be text`);
    if (Object.hasOwn(input, f)) setOwn(out, f, input[f]);
  }
  return out;
}

export async function run(data: unknown, args: unknown): Promise<unknown> {
  const a = config(args, W);
  const secret = Buffer.from(text(a, 'secret', W), 'utf8');
  if (secret.length < 32) throw new TransformError(`${W}: the secret must be at least 32 bytes (RFC 7518 §3.2)`);
  const claims = { ...claimsOf(a.data, data) };
  const now = Math.floor(nowMs() / 1000);
  let expSecs: number | undefined;
  if (a.exp !== undefined) {
    try {
      expSecs = Math.round(durationMs(a.exp) / 1000);
    } catch {
      throw new TransformError(`${W}: \`exp\` must be a duration such as 30m, 1h or 1d`);
    }
    const tooLong = durationProblem(a.exp, 'exp');
    if (tooLong) throw new TransformError(`${W}: ${tooLong}`);
    if (expSecs <= 0) throw new TransformError(`${W}: \`exp\` must be at least one second`);
  }
  try {
    const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' });
    if (claims.iat === undefined) jwt.setIssuedAt(now);
    if (expSecs !== undefined) jwt.setExpirationTime(now + expSecs);
    // The secret imported once (runtime/values/hmac-key.ts), not by jose on every call.
    const token = await jwt.sign(await hmacKey(text(a, 'secret', W), 'HS256', 'sign'));
    // Signed with a configured secret: its signature is redacted like the secret (logs, runs, captures).
    deriveFrom([text(a, 'secret', W)], token.slice(token.lastIndexOf('.') + 1));
    return writeKey(data, a, token, W);
  } catch (e) {
    if (e instanceof TransformError) throw e;
    throw new TransformError(`${W}: ${(e as Error).message}`); // jose names the bad claim, never the key
  }
}
