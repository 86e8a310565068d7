// encrypt_value: {key, data, secret_key, nonce} -> AES-256-GCM encryption of `data` (text as
// UTF-8, other values as compact JSON) written under `key` as {value, nonce, tag}, each standard
// Base64 (tag: 16 bytes). Key and nonce forms: util/aes.ts. `nonce: random` (or "") draws 12
// fresh random bytes: GCM is broken by reusing a nonce under one key, so a fixed nonce is only
// for reproducing a known ciphertext.
import { createCipheriv, randomBytes } from 'node:crypto';
import type { TransformRun } from './types.ts';
import { nonceOf, secretKey } from './util/aes.ts';
import { bytesOf, config, text, writeKey } from './util/fields.ts';

const W = 'encrypt_value';

export const run: TransformRun = (data, args) => {
  const a = config(args, W);
  const key = secretKey(a, W);
  const n = text(a, 'nonce', W);
  const nonce = n === '' || n === 'random' ? randomBytes(12) : nonceOf(n, W);
  const plain = bytesOf(a.data, 'data', W);
  const c = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: 16 });
  const value = Buffer.concat([c.update(plain), c.final()]);
  const out = { value: value.toString('base64'), nonce: nonce.toString('base64'), tag: c.getAuthTag().toString('base64') };
  return writeKey(data, a, out, W);
};
