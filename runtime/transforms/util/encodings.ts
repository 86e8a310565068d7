// Strict decoders. Buffer.from(s, 'base64'/'hex') silently skips bad characters, which would turn
// a corrupted value into different bytes instead of an error; these return undefined instead.
const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** Base64 in either alphabet (standard or URL-safe), padding optional, whitespace ignored. */
export function fromBase64(s: string): Buffer | undefined {
  const t = s.replace(/\s+/g, '');
  return isBase64(t) ? Buffer.from(t, 'base64') : undefined;
}

/** Whether `t` (no whitespace) is base64 as fromBase64 reads it. */
export function isBase64(t: string): boolean {
  const body = t.replace(/={1,2}$/, '');
  if (!/^[A-Za-z0-9+/_-]*$/.test(body) || body.length % 4 === 1) return false;
  if (t.length !== body.length && t.length % 4 !== 0) return false; // padding must complete the quad
  return !(/[+/]/.test(body) && /[-_]/.test(body)); // mixed alphabets: corrupted
}

export const isHex = (s: string): boolean => /^(?:[0-9a-fA-F]{2})*$/.test(s);

export function fromHex(s: string): Buffer | undefined {
  return isHex(s) ? Buffer.from(s, 'hex') : undefined;
}

/**
 * RFC 4648 base32 (authenticator secrets): case-insensitive, spaces, dashes and "=" padding ignored
 * (apps show secrets in groups). Node has no base32 codec, and this is an encoding, not crypto.
 */
export function fromBase32(s: string): Buffer | undefined {
  const t = s.replace(/[\s-]+/g, '').replace(/=+$/, '').toUpperCase();
  if ([1, 3, 6].includes(t.length % 8)) return undefined; // lengths no byte string encodes to
  const out: number[] = [];
  let bits = 0, acc = 0;
  for (const ch of t) {
    const v = B32.indexOf(ch);
    if (v < 0) return undefined;
    acc = ((acc << 5) | v) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >>> bits) & 0xff);
    }
  }
  return Buffer.from(out);
}

/**
 * A fixed-size key or nonce given as text. The three accepted forms have different lengths for
 * any size, so the form is never ambiguous: 2n hex digits, base64 of n bytes, or n bytes of text.
 */
export function fixedBytes(s: string, n: number): Buffer | undefined {
  if (s.length === 2 * n) return fromHex(s);
  const b64 = Math.ceil(n / 3) * 4, unpadded = Math.ceil((n * 4) / 3);
  if (s.length === b64 || s.length === unpadded) {
    const b = fromBase64(s);
    return b && b.length === n ? b : undefined;
  }
  const raw = Buffer.from(s, 'utf8');
  return raw.length === n ? raw : undefined;
}
