// `is_valid_hmac: {secret, data, algorithm?, encoding?}`: the actual value must be the HMAC of
// `data` under `secret` (same rules as the `hmac` transform: sha256/hex by default). The value
// may carry a "<algorithm>=" prefix, as GitHub's X-Hub-Signature-256 does; hex is read in either
// case. Bytes are compared with timingSafeEqual so a caller cannot learn the signature byte by
// byte from response times. Messages never show the secret, the data or the expected signature.
import { timingSafeEqual } from 'node:crypto';
import { fromBase64, fromHex } from '../transforms/util/encodings.ts';
import { HMAC_ALGORITHMS, HMAC_ENCODINGS, hmacBytes, type HmacAlgorithm } from '../transforms/util/hmac.ts';
import type { AssertOp } from './types.ts';

interface Cfg { secret: string; data: unknown; algorithm: HmacAlgorithm; encoding: 'hex' | 'base64' }

function cfg(e: unknown): Cfg | undefined {
  if (e === null || typeof e !== 'object' || Array.isArray(e)) return undefined;
  const o = e as Record<string, unknown>;
  const algorithm = o.algorithm ?? 'sha256', encoding = o.encoding ?? 'hex';
  if (typeof o.secret !== 'string' || o.secret === '' || o.data === undefined) return undefined;
  if (!HMAC_ALGORITHMS.includes(algorithm as HmacAlgorithm) || !HMAC_ENCODINGS.includes(encoding as 'hex')) return undefined;
  return { secret: o.secret, data: o.data, algorithm: algorithm as HmacAlgorithm, encoding: encoding as Cfg['encoding'] };
}

export const op: AssertOp = {
  check(a, e) {
    const c = cfg(e);
    if (!c || typeof a !== 'string') return false;
    const sig = a.trim().replace(new RegExp(`^${c.algorithm}=`, 'i'), '');
    const got = c.encoding === 'hex' ? fromHex(sig) : fromBase64(sig);
    const want = hmacBytes(c.algorithm, c.secret, c.data);
    return got !== undefined && got.length === want.length && timingSafeEqual(got, want);
  },
  explain(a, e) {
    const c = cfg(e);
    if (!c) return `is_valid_hmac needs {secret, data} with algorithm ${HMAC_ALGORITHMS.join('/')} and encoding hex/base64`;
    if (typeof a !== 'string') return `expected an HMAC signature as text, got ${a === null || a === undefined ? 'nothing' : typeof a}`;
    return `the value is not a valid HMAC-${c.algorithm.toUpperCase()} (${c.encoding}) of the data`;
  },
};
