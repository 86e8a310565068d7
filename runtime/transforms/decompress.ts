// decompress: {value, key, algorithm?, encoding?, json?, max_compress_bytes?} -> the text at
// `value` decoded, decompressed and written at `key` as UTF-8 text (or parsed JSON with json: true).
// max_compress_bytes (default 8 MiB) bounds the compressed bytes and the decompressed output; zlib
// stops at the bound (maxOutputLength), so a zip bomb is refused without being expanded.
// Output that is not UTF-8 fails: JSON cannot carry bytes, and silent mojibake is worse.
import { unpack, algorithmArg } from './util/codec.ts';
import { byteBound, decodeBinary, encodingArg } from './util/bytes.ts';
import { valueKey } from './util/value-key.ts';
import { DEFAULT_MAX_COMPRESS_BYTES } from './compress.ts';
import { TransformError, type TransformRun } from './types.ts';

const W = 'decompress';
const utf8 = new TextDecoder('utf-8', { fatal: true });

export const run: TransformRun = (data, args) => {
  const { value, write } = valueKey(data, args, W);
  const algorithm = algorithmArg(args.algorithm, W);
  const encoding = encodingArg(args.encoding, ['base64', 'base64url', 'hex'] as const, W);
  if (args.json !== undefined && typeof args.json !== 'boolean') throw new TransformError(`${W}: json must be true or false`);
  const max = byteBound(args.max_compress_bytes, DEFAULT_MAX_COMPRESS_BYTES, W, 'max_compress_bytes');
  if (value === undefined || value === null) return write(null);
  const packed = decodeBinary(value, encoding === 'hex' ? 'hex' : 'base64', W, max, 'max_compress_bytes');
  let bytes: Buffer;
  try {
    bytes = unpack[algorithm](packed, { maxOutputLength: max });
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'ERR_BUFFER_TOO_LARGE') throw new TransformError(`${W}: the decompressed data exceeds max_compress_bytes (${max}); refused`);
    throw new TransformError(`${W}: the value is not valid ${algorithm} data (${e instanceof Error ? e.message : String(e)})`);
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new TransformError(`${W}: the decompressed data is not UTF-8 text`);
  }
  if (!args.json) return write(text);
  try {
    return write(JSON.parse(text));
  } catch (e) {
    throw new TransformError(`${W}: the decompressed text is not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
};
