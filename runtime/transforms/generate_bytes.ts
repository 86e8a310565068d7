// generate_bytes: {key, length} -> `length` (1..1024) cryptographically random bytes (randomBytes)
// as lowercase hex text under `key` (2 characters per byte). Hex because the field has no encoding
// option, and hex is safe in URLs, headers, file names and JSON without escaping.
import { randomBytes } from 'node:crypto';
import type { TransformRun } from './types.ts';
import { config, int, writeKey } from './util/fields.ts';

const W = 'generate_bytes';

export const run: TransformRun = (data, args) => {
  const a = config(args, W);
  return writeKey(data, a, randomBytes(int(a, 'length', W, 1, 1024)).toString('hex'), W);
};
