// Dotted-path access for transforms: own properties only, copy-on-write (inputs are shared with
// other actions, so nothing here mutates), and safe for hostile keys such as "__proto__".
import { TransformError } from '../types.ts';
import { copyRecord } from '../../values/build.ts';
// One safe-write helper for the whole runtime (an own "__proto__" stays data).
import { setOwn } from '../../values/build.ts';
export { setOwn };

/** Returned by lookup() when a path does not exist (distinct from a stored null). */
export const MISSING: unique symbol = Symbol('missing');

export type Rec = Record<string, unknown>;
export const isObject = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** For error messages: "null", "an array", "a string", ... (never the value: it may be secret). */
export const kindOf = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'an array' : v === undefined ? 'nothing' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;

const INDEX = /^(0|[1-9]\d*)$/;


export function splitPath(path: unknown, who: string): string[] {
  const segs = typeof path === 'string' ? path.split('.') : [];
  if (segs.length === 0 || segs.includes('')) throw new TransformError(`${who}: invalid path ${JSON.stringify(path)}`);
  return segs;
}

/** Own property of an object, or an existing element of an array by decimal index. */
function child(c: unknown, k: string): unknown {
  if (Array.isArray(c)) return INDEX.test(k) && +k < c.length ? c[+k] : MISSING;
  return isObject(c) && Object.hasOwn(c, k) ? c[k] : MISSING;
}

export function lookup(data: unknown, segs: string[]): unknown {
  let cur = data;
  for (const k of segs) if ((cur = child(cur, k)) === MISSING) break;
  return cur;
}

/** Value at a dotted path, undefined when absent. */
export function getPath(data: unknown, path: string, who: string): unknown {
  const v = lookup(data, splitPath(path, who));
  return v === MISSING ? undefined : v;
}

function copyWith(c: Rec | unknown[], k: string, v: unknown): Rec | unknown[] {
  if (Array.isArray(c)) return c.map((el, i) => (i === +k ? v : el));
  const o = copyRecord(c); // an own "__proto__" is copied as data (see copyRecord)
  setOwn(o, k, v);
  return o;
}

/** Copy of data with the path set. Missing or null intermediates become objects (as in jq). */
export function setPath(data: unknown, segs: string[], v: unknown, who: string, i = 0): unknown {
  if (i === segs.length) return v;
  const cur = data === MISSING || data === null || data === undefined ? {} : data;
  const k = segs[i];
  const ok = Array.isArray(cur) ? INDEX.test(k) && +k < cur.length : isObject(cur);
  if (!ok) {
    const at = segs.slice(0, i).join('.') || 'the data';
    throw new TransformError(`${who}: cannot set "${segs.join('.')}": ${at} is ${kindOf(cur)}${Array.isArray(cur) ? ' without index ' + k : ''}`);
  }
  return copyWith(cur as Rec | unknown[], k, setPath(child(cur, k), segs, v, who, i + 1));
}

/** Copy of data without the path (the same reference when there was nothing to remove). */
export function deletePath(data: unknown, segs: string[], i = 0): unknown {
  const k = segs[i];
  const next = child(data, k);
  if (next === MISSING) return data;
  if (i === segs.length - 1) {
    if (Array.isArray(data)) return data.filter((_, j) => j !== +k);
    const o = copyRecord(data as Rec);
    delete o[k];
    return o;
  }
  const inner = deletePath(next, segs, i + 1);
  return inner === next ? data : copyWith(data as Rec | unknown[], k, inner);
}
