// HMAC shared by the `hmac` transform and the `is_valid_hmac` assertion, so a signature made by
// one verifies under the other with the same algorithm and encoding. The secret is UTF-8 text;
// data is text as UTF-8, anything else as compact JSON.
import { createHmac } from 'node:crypto';

export const HMAC_ALGORITHMS = ['sha256', 'sha1', 'sha512'] as const;
export const HMAC_ENCODINGS = ['hex', 'base64'] as const;
export type HmacAlgorithm = (typeof HMAC_ALGORITHMS)[number];

export function hmacBytes(algorithm: HmacAlgorithm, secret: string, data: unknown): Buffer {
  const bytes = typeof data === 'string' ? data : JSON.stringify(data ?? null);
  return createHmac(algorithm, Buffer.from(secret, 'utf8')).update(Buffer.from(bytes, 'utf8')).digest();
}
