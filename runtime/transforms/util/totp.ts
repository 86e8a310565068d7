// RFC 6238 TOTP (RFC 4226 HOTP over the time step), shared by the `totp` transform and the
// `is_valid_totp` assertion. Secrets arrive as text: base32 (authenticator apps' form), hex or
// ASCII. Errors never contain the secret.
import { createHmac } from 'node:crypto';
import { fromBase32, fromHex } from './encodings.ts';

export const TOTP_ENCODINGS = ['base32', 'hex', 'ascii'] as const;
export const TOTP_ALGORITHMS = ['sha1', 'sha256', 'sha512'] as const;

export interface TotpOptions {
  encoding: (typeof TOTP_ENCODINGS)[number];
  algorithm: (typeof TOTP_ALGORITHMS)[number];
  digits: number; // 6..10
  period: number; // seconds
}

/** The key bytes, or a reason (without the secret) why the text is not a key. */
export function totpKey(secret: string, encoding: TotpOptions['encoding']): Buffer | string {
  const k = encoding === 'base32' ? fromBase32(secret) : encoding === 'hex' ? fromHex(secret.replace(/\s+/g, '')) : Buffer.from(secret, 'utf8');
  if (!k) return `secret is not valid ${encoding}`;
  return k.length === 0 ? 'secret is empty' : k;
}

/** The code for time step `counter` (floor(unix seconds / period)), zero-padded to `digits`. */
export function hotp(key: Buffer, counter: number, o: Pick<TotpOptions, 'algorithm' | 'digits'>): string {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const h = createHmac(o.algorithm, key).update(msg).digest();
  const off = h[h.length - 1] & 0x0f; // dynamic truncation, RFC 4226 5.3
  const bin = h.readUInt32BE(off) & 0x7fffffff;
  return String(bin % 10 ** o.digits).padStart(o.digits, '0');
}

export const step = (unixMs: number, period: number): number => Math.floor(unixMs / 1000 / period);
