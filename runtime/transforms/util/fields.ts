// Field checks for the keyed transforms (bcrypt, hmac, totp, ...). Messages name the field and
// the kind of value found, never the value itself: many of these fields hold secrets.
import { TransformError } from '../types.ts';
import { isObject, kindOf, setPath, splitPath, type Rec } from './path.ts';

export function config(args: unknown, who: string): Rec {
  if (!isObject(args)) throw new TransformError(`${who}: expected an object of settings, got ${kindOf(args)}`);
  return args;
}

export function text(a: Rec, name: string, who: string, opts: { optional?: boolean; nonEmpty?: boolean } = {}): string {
  const v = a[name];
  if (v === undefined && opts.optional) return '';
  if (typeof v !== 'string') throw new TransformError(`${who}: \`${name}\` must be text, got ${kindOf(v)}`);
  if (opts.nonEmpty && v === '') throw new TransformError(`${who}: \`${name}\` is empty`);
  return v;
}

/** Whole number in [min, max]; numeric text is accepted because markers interpolate to text. */
export function int(a: Rec, name: string, who: string, min: number, max: number, dflt?: number): number {
  const v = a[name];
  if (v === undefined && dflt !== undefined) return dflt;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < min || n > max)
    throw new TransformError(`${who}: \`${name}\` must be a whole number from ${min} to ${max}`);
  return n;
}

export function choice<T extends string>(a: Rec, name: string, who: string, choices: readonly T[], dflt: T): T {
  const v = a[name] ?? dflt;
  if (typeof v !== 'string' || !choices.includes(v as T))
    throw new TransformError(`${who}: \`${name}\` must be one of ${choices.join(', ')}`);
  return v as T;
}

export function flag(a: Rec, name: string, who: string, dflt: boolean): boolean {
  const v = a[name] ?? dflt;
  if (typeof v !== 'boolean') throw new TransformError(`${who}: \`${name}\` must be true or false`);
  return v;
}

/** Bytes of a value to sign, hash or encrypt: text as UTF-8, anything else as compact JSON. */
export function bytesOf(v: unknown, name: string, who: string): Buffer {
  if (v === undefined) throw new TransformError(`${who}: \`${name}\` is required`);
  return Buffer.from(typeof v === 'string' ? v : JSON.stringify(v), 'utf8');
}

/** The data with `result` set under the dotted output field `key` (created when missing). */
export function writeKey(data: unknown, a: Rec, result: unknown, who: string): unknown {
  return setPath(data, splitPath(a.key, who), result, who);
}

/**
 * A data path written as text: "", "." and "$" are the data itself; "$.a.b", "a.b" and "a[0].b"
 * are dotted segments. Filters and wildcards are refused (a path here names one value).
 */
export function dataPath(p: unknown, who: string, name = 'value'): string[] {
  if (typeof p !== 'string') throw new TransformError(`${who}: \`${name}\` must be a path, got ${kindOf(p)}`);
  const t = p.trim().replace(/^\$\.?/, '').replace(/\[(\d+)\]/g, '.$1').replace(/^\./, '');
  if (t === '') return [];
  if (/[*?()[\]]|\.\./.test(t)) throw new TransformError(`${who}: \`${name}\` must be a plain dotted path such as items.0.name`);
  return splitPath(t, who);
}
