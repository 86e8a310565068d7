// Value helpers shared by the jq runtime: object checks, own-property writes, truthiness.

export type Obj = Record<string, unknown>;

export function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Writes an own property even for "__proto__" (plain assignment would set the prototype). */
export function put(o: Obj, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
  else o[k] = v;
}

export function truthy(v: unknown): boolean {
  return v !== null && v !== false && v !== undefined;
}

export function not(v: unknown): boolean {
  return v === null || v === false || v === undefined;
}

/** Types a continuation that compiled code calls once per output. */
export const each = (f: (v: unknown) => void): ((v: unknown) => void) => f;
