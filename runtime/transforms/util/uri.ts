// The four URI transforms share one shape: TransformConfig (util/convert.ts) and a text mapping.
// Encoders take text, numbers and booleans (ids are often numbers); decoders take text, and
// malformed percent-encoding fails instead of throwing a raw URIError.
import { TransformError, type TransformRun } from '../types.ts';
import { convertAt, needText } from './convert.ts';
import { kindOf } from './path.ts';

export function scalarText(v: unknown, who: string): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new TransformError(`${who}: expected text, got ${kindOf(v)}`);
}

export function uriTransform(who: string, f: (s: string) => string, decode: boolean): TransformRun {
  const one = (v: unknown) => {
    const s = decode ? needText(v, who) : scalarText(v, who);
    try {
      return f(s);
    } catch {
      // encodeURI* only throw on lone surrogates, decodeURI* on bad % sequences.
      throw new TransformError(`${who}: ${decode ? 'malformed percent-encoding' : 'text contains a lone surrogate'}`);
    }
  };
  return (data, args) => convertAt(data, args, who, one);
}
