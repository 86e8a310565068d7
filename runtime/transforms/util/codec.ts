// zlib codecs by config name. `deflate` is raw deflate (no header), `zlib` the RFC 1950 wrapper.
import { deflateRawSync, gunzipSync, gzipSync, inflateRawSync, inflateSync, deflateSync, type ZlibOptions } from 'node:zlib';
import { TransformError } from '../types.ts';

export const ALGORITHMS = ['gzip', 'zlib', 'deflate'] as const;
export type Algorithm = (typeof ALGORITHMS)[number];

export const pack: Record<Algorithm, (b: Buffer, o: ZlibOptions) => Buffer> = { gzip: gzipSync, zlib: deflateSync, deflate: deflateRawSync };
export const unpack: Record<Algorithm, (b: Buffer, o: ZlibOptions) => Buffer> = { gzip: gunzipSync, zlib: inflateSync, deflate: inflateRawSync };

export function algorithmArg(v: unknown, who: string): Algorithm {
  if (v === undefined || v === null) return 'gzip';
  if (typeof v !== 'string' || !(ALGORITHMS as readonly string[]).includes(v))
    throw new TransformError(`${who}: algorithm must be gzip, zlib or deflate; got ${JSON.stringify(v)}`);
  return v as Algorithm;
}
