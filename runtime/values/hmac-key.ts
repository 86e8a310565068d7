// HMAC secrets as Web Crypto keys, imported once per secret, algorithm and use. Given raw bytes,
// jose imports them again on every sign or verify (~60–75 µs of a ~150 µs verification, in process).
// An imported HMAC key is bound to its hash, hence one per algorithm. The memo holds what the
// environment or the config already holds (a secret may come from a marker).
import { webcrypto } from 'node:crypto';
import { TextMemo } from './text-memo.ts';

export const HMAC_ALGS = ['HS256', 'HS384', 'HS512'];
export type HmacAlg = 'HS256' | 'HS384' | 'HS512';
export const isHmacAlg = (alg: unknown): alg is HmacAlg => HMAC_ALGS.includes(alg as string);

const keys = new TextMemo<Promise<webcrypto.CryptoKey>>(64);

export function hmacKey(secret: string, alg: HmacAlg, use: 'sign' | 'verify'): Promise<webcrypto.CryptoKey> {
  return keys.get(JSON.stringify([secret, alg, use]), () =>
    webcrypto.subtle.importKey('raw', Buffer.from(secret, 'utf8'), { name: 'HMAC', hash: `SHA-${alg.slice(2)}` }, false, [use]));
}
