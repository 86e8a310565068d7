// Binary values carried as text (base64, base64url, hex) for the compress and document transforms.
// Node's decoders skip characters they do not know, so a corrupted value would silently decode to
// other bytes; text is validated first, and its decoded size checked before anything is allocated.
import { TransformError } from '../types.ts';
import { isBase64, isHex } from './encodings.ts';
import { kindOf } from './path.ts';

export type BinaryEncoding = 'base64' | 'base64url' | 'hex';

export const MiB = 1024 * 1024;
/** Default bound of a decoded document (parse_xlsx, parse_pdf). */
export const DEFAULT_MAX_DOCUMENT_BYTES = 16 * MiB;
/** Highest byte bound a config may set: a sanity cap, far above the defaults. */
const MAX_BOUND = 256 * MiB;

export function encodingArg<E extends string>(v: unknown, allowed: readonly E[], who: string): E {
  if (v === undefined || v === null) return allowed[0]!;
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v))
    throw new TransformError(`${who}: encoding must be ${allowed.join(', ')}; got ${JSON.stringify(v)}`);
  return v as E;
}

/** A byte bound given in the config (a number or a decimal string from a marker). */
export function byteBound(v: unknown, dflt: number, who: string, field: string): number {
  if (v === undefined || v === null) return dflt;
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_BOUND)
    throw new TransformError(`${who}: ${field} must be a whole number of bytes from 1 to ${MAX_BOUND}`);
  return n;
}

export function decodeBinary(text: unknown, enc: BinaryEncoding, who: string, max: number, field: string): Buffer {
  if (typeof text !== 'string') throw new TransformError(`${who}: value must be ${enc} text, got ${kindOf(text)}`);
  const s = /\s/.test(text) ? text.replace(/\s+/g, '') : text; // MIME-style line breaks are common
  // The strict decoders' rules (./encodings.ts), checked here so the size is known before decoding.
  if (enc === 'hex' ? !isHex(s) : !isBase64(s)) throw new TransformError(`${who}: value is not valid ${enc === 'hex' ? 'hex' : 'base64'}`);
  const size = enc === 'hex' ? s.length / 2 : Math.floor((s.length * 3) / 4) - (s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0);
  if (size > max) throw new TransformError(`${who}: the decoded value is ${size} bytes, over ${field} (${max})`);
  return Buffer.from(s, enc === 'hex' ? 'hex' : 'base64');
}

export function encodeBinary(buf: Buffer, enc: BinaryEncoding): string {
  return buf.toString(enc);
}
