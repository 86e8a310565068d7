// compress: {value, key, algorithm?, encoding?, level?, max_compress_bytes?} -> the value at
// `value` compressed and written as text at `key`. Strings are compressed as their UTF-8 bytes,
// anything else as compact JSON; an absent or null value gives null (nothing to compress).
// max_compress_bytes (default 8 MiB) bounds the input bytes.
import { pack, algorithmArg } from './util/codec.ts';
import { byteBound, encodeBinary, encodingArg, MiB } from './util/bytes.ts';
import { valueKey } from './util/value-key.ts';
import { TransformError, type TransformRun } from './types.ts';

export const DEFAULT_MAX_COMPRESS_BYTES = 8 * MiB;
const W = 'compress';

export const run: TransformRun = (data, args) => {
  const { value, write } = valueKey(data, args, W);
  const algorithm = algorithmArg(args.algorithm, W);
  const encoding = encodingArg(args.encoding, ['base64', 'base64url', 'hex'] as const, W);
  const level = args.level ?? 6;
  if (!Number.isInteger(level) || level < 0 || level > 9) throw new TransformError(`${W}: level must be a whole number from 0 to 9`);
  const max = byteBound(args.max_compress_bytes, DEFAULT_MAX_COMPRESS_BYTES, W, 'max_compress_bytes');
  if (value === undefined || value === null) return write(null);
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  // UTF-8 is at most 3 bytes per UTF-16 unit: skip the exact count for clearly small inputs.
  const size = text.length * 3 <= max ? 0 : Buffer.byteLength(text);
  if (size > max) throw new TransformError(`${W}: the value is ${size} bytes, over max_compress_bytes (${max})`);
  return write(encodeBinary(pack[algorithm](Buffer.from(text), { level }), encoding));
};
