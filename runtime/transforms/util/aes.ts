// Key and nonce parsing for encrypt_value / decrypt_value (AES-256-GCM).
// secret_key: 32 bytes as 64 hex digits, Base64 (44 characters, or 43 unpadded) or 32 bytes of
// text. nonce: 12 bytes (GCM's standard IV size) as 24 hex digits, 16 Base64 characters or 12
// bytes of text. The forms differ in length, so the reading is never ambiguous. Messages never
// show the values.
import { TransformError } from '../types.ts';
import { fixedBytes } from './encodings.ts';
import { text } from './fields.ts';
import type { Rec } from './path.ts';

export function secretKey(a: Rec, who: string): Buffer {
  const k = fixedBytes(text(a, 'secret_key', who), 32);
  if (!k) throw new TransformError(`${who}: \`secret_key\` must be 32 bytes: 64 hex digits, Base64 of 32 bytes, or 32 characters of text`);
  return k;
}

export function nonceOf(s: string, who: string): Buffer {
  const n = fixedBytes(s, 12);
  if (!n) throw new TransformError(`${who}: \`nonce\` must be 12 bytes: 24 hex digits, 16 Base64 characters, or 12 characters of text`);
  return n;
}
