// Builds transform arguments the way the compiler/interpreter hand them over: 'calcs' as
// [name, closure] pairs (from either backend), 'path' as a getter, 'tests' as [getter, Pred].
import { compileCalcSource } from '../../compiler/calc/compile.ts';
import { compileCalcClosure } from '../../runtime/calc/eval.ts';
import { getDotted } from '../../runtime/calc/locate.ts';
import { jsonPathPlaces } from '../../runtime/jsonpath/query.ts';
import * as ops from '../../runtime/calc/ops.ts';
import type { Scope } from '../../runtime/scope.ts';
import { runTest } from '../../runtime/asserts/run-test.ts';

export const scope: Scope = {
  body: null, rawBody: '', params: {}, headers: {}, steps: {}, state: {},
  env: { secret: () => undefined, variable: () => undefined, env: () => undefined, uuid: () => 'u-1' },
};

export type Backend = 'interpreted' | 'compiled';
export const backends: Backend[] = ['interpreted', 'compiled'];

export function calcs(map: Record<string, string>, backend: Backend = 'interpreted') {
  return Object.entries(map).map(([name, src]) => [
    name,
    // The compiled form generated modules declare: math calls it on records only.
    backend === 'interpreted' ? compileCalcClosure(src) : new Function('calc', `return ${compileCalcSource(src, { record: true })}`)(ops),
  ]) as Array<[string, (t: unknown) => unknown]>;
}

export const at = (dotted: string) => (data: unknown) => (dotted === '$' ? data : getDotted(data, dotted));
/** A `target` as the compiler hands it over ('places'): all matches of a path with their locations. */
export const sel = (path: string) => (data: unknown) => jsonPathPlaces(path, data);

export function conditions(map: Record<string, Array<[string, unknown]>>) {
  return Object.entries(map).map(([field, checks]) => [at(field), (v: unknown) => runTest(v, checks, field)]) as Array<
    [(el: unknown) => unknown, (v: unknown) => { ok: boolean }]
  >;
}

/** Deep-freezes test input, so any mutation by a transform throws. */
export function frozen<T>(v: T): T {
  if (typeof v === 'object' && v !== null) {
    for (const k of Reflect.ownKeys(v)) frozen((v as any)[k]);
    Object.freeze(v);
  }
  return v;
}
