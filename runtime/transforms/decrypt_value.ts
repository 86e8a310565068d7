// decrypt_value: {key, value, nonce, tag, secret_key} -> the AES-256-GCM plaintext as UTF-8 text
// under `key` (encrypt_value wrote non-text data as JSON; parse it back with jq's `fromjson`).
// `value` and `tag` are Base64 (either alphabet), the tag exactly 16 bytes (a shorter tag would
// weaken authentication); key and nonce forms: util/aes.ts. A wrong key or an altered value, nonce
// or tag fails with one message: GCM cannot tell which of them was wrong.
import { createDecipheriv } from 'node:crypto';
import { TransformError, type TransformRun } from './types.ts';
import { nonceOf, secretKey } from './util/aes.ts';
import { fromBase64 } from './util/encodings.ts';
import { config, text, writeKey } from './util/fields.ts';

const W = 'decrypt_value';
const utf8 = new TextDecoder('utf-8', { fatal: true });

export const run: TransformRun = (data, args) => {
  const a = config(args, W);
  const key = secretKey(a, W);
  const nonce = nonceOf(text(a, 'nonce', W), W);
  const value = fromBase64(text(a, 'value', W));
  if (!value) throw new TransformError(`${W}: \`value\` is not valid Base64`);
  const tag = fromBase64(text(a, 'tag', W));
  if (!tag || tag.length !== 16) throw new TransformError(`${W}: \`tag\` must be 16 bytes in Base64`);
  let plain: Buffer;
  try {
    const d = createDecipheriv('aes-256-gcm', key, nonce, { authTagLength: 16 });
    d.setAuthTag(tag);
    plain = Buffer.concat([d.update(value), d.final()]);
  } catch {
    throw new TransformError(`${W}: authentication failed: wrong secret_key, or the value, nonce or tag was altered`);
  }
  try {
    return writeKey(data, a, utf8.decode(plain), W);
  } catch (e) {
    if (e instanceof TransformError) throw e;
    throw new TransformError(`${W}: the decrypted bytes are not UTF-8 text`);
  }
};
