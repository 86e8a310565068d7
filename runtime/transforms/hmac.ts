// hmac: {key, data, secret, algorithm, encoding} -> HMAC of `data` (text as UTF-8, other values
// as compact JSON) under `secret` (UTF-8 text, non-empty), written under `key`. algorithm sha256
// (default), sha1 or sha512; encoding hex (default, lowercase) or base64 (standard, padded).
// `is_valid_hmac` with the same settings verifies the result.
import { TransformError, type TransformRun } from './types.ts';
import { config, choice, text, writeKey } from './util/fields.ts';
import { HMAC_ALGORITHMS, HMAC_ENCODINGS, hmacBytes } from './util/hmac.ts';
import { deriveFrom } from '../values/derived-secrets.ts';

const W = 'hmac';

export const run: TransformRun = (data, args) => {
  const a = config(args, W);
  const secret = text(a, 'secret', W, { nonEmpty: true });
  if (a.data === undefined) throw new TransformError(`${W}: \`data\` is required`);
  const algorithm = choice(a, 'algorithm', W, HMAC_ALGORITHMS, 'sha256');
  const encoding = choice(a, 'encoding', W, HMAC_ENCODINGS, 'hex');
  const signature = hmacBytes(algorithm, secret, a.data).toString(encoding);
  deriveFrom([secret], signature); // a signature under a configured secret is redacted like it
  return writeKey(data, a, signature, W);
};
