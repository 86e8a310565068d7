// Own-property path access: markers and paths never reach prototype members such as __proto__.
const hasOwn = Object.prototype.hasOwnProperty;

/** What generated code reads a plain field name of (compiler/emit/plain-key.ts): any run data. */
export type Fields = { readonly [k: string]: unknown } | null | undefined;
/** What generated code reads a plain field name of with no null check: a record (an object, not an array). */
export type Rec = { readonly [k: string]: unknown };

/** One step into a value; undefined when absent. */
export function at(value: unknown, key: string | number): unknown {
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    const i = typeof key === 'number' ? key : /^-?\d+$/.test(key) ? Number(key) : NaN;
    if (Number.isInteger(i)) return value[i < 0 ? value.length + i : i];
    return undefined;
  }
  return hasOwn.call(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

/** A path of steps; undefined as soon as one is absent. */
export function path(value: unknown, segs: ReadonlyArray<string | number>): unknown {
  let v = value;
  for (const s of segs) {
    v = at(v, s);
    if (v === undefined) return undefined;
  }
  return v;
}
