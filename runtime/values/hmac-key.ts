// HMAC secrets as Web Crypto keys, imported once per secret, algorithm and use. Given raw bytes,
// jose imports them again on every sign or verify (~60–75 µs of a ~150 µs verification). An
// imported HMAC key is bound to its hash, hence one per algorithm. Bounded: a secret may come from a
// marker; the map holds what the environment or the config already holds.
import { webcrypto } from 'node:crypto';

export type HmacAlg = 'HS256' | 'HS384' | 'HS512';
export const isHmacAlg = (alg: unknown): alg is HmacAlg => alg === 'HS256' || alg === 'HS384' || alg === 'HS512';

const keys = new Map<string, Promise<webcrypto.CryptoKey>>();
const MAX_KEYS = 64;

export function hmacKey(secret: string, alg: HmacAlg, use: 'sign' | 'verify'): Promise<webcrypto.CryptoKey> {
  const id = JSON.stringify([secret, alg, use]);
  let k = keys.get(id);
  if (!k) {
    k = webcrypto.subtle.importKey('raw', Buffer.from(secret, 'utf8'), { name: 'HMAC', hash: `SHA-${alg.slice(2)}` }, false, [use]);
    if (keys.size >= MAX_KEYS) keys.clear();
    keys.set(id, k);
  }
  return k;
}
