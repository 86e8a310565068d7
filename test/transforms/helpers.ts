// Shared test helpers: a stub scope, deep-frozen inputs (any write throws in strict ESM), and
// hostile JSON (JSON.parse creates an own "__proto__" key, as an HTTP body would).
import type { Scope } from '../../runtime/scope.ts';

export const scope: Scope = {
  body: null, rawBody: '', params: {}, headers: {}, steps: {}, state: {},
  env: { secret: () => undefined, variable: () => undefined, env: () => undefined, uuid: () => 'u-1' },
};

export function frozen<T>(v: T): T {
  if (typeof v === 'object' && v !== null) {
    for (const k of Reflect.ownKeys(v)) frozen((v as any)[k]);
    Object.freeze(v);
  }
  return v;
}

export const hostile = (): Record<string, unknown> =>
  frozen(JSON.parse('{"id":1,"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}'));

/** Nothing leaked onto shared prototypes. */
export const clean = () => ({} as any).polluted === undefined && (Object.prototype as any).polluted === undefined;
