// JSONPath steps for compiled paths (compiler/jsonpath/compile.ts, imported there as `jp`) and for
// jsonPathAll's simple paths. RFC 9535 semantics as in jsonpath-rfc9535: names select own members of
// plain objects, indices select array elements (negative from the end); no match is undefined.

type Obj = Record<string, unknown>;

export function isPlainObject(v: unknown): v is Obj {
  if (typeof v !== 'object' || v === null) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** `.name` / `['name']` */
export function prop(v: unknown, name: string): unknown {
  return isPlainObject(v) && Object.hasOwn(v, name) ? v[name] : undefined;
}

/** `[i]` */
export function at(v: unknown, i: number): unknown {
  if (!Array.isArray(v)) return undefined;
  const j = i < 0 ? v.length + i : i;
  return j >= 0 && j < v.length ? v[j] : undefined;
}

/** `[*]` / `.*`: array elements or object member values. */
export function values(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  return isPlainObject(v) ? Object.values(v) : [];
}

/** A single-match path's node list. */
export function one(v: unknown): unknown[] {
  return v === undefined ? [] : [v];
}

/** One segment of a dotted path (`items.0.name`): array index if numeric, else an own member. */
export function dot(v: unknown, seg: string): unknown {
  if (Array.isArray(v)) {
    if (!/^-?\d+$/.test(seg)) return undefined;
    const i = Number(seg);
    return v[i < 0 ? v.length + i : i];
  }
  return typeof v === 'object' && v !== null && Object.hasOwn(v, seg) ? (v as Obj)[seg] : undefined;
}
