// Arguments as the compiler and interpreter hand them over: `value` is a path getter.
import type { Scope } from '../../runtime/scope.ts';
import { TransformError } from '../../runtime/transforms/types.ts';
import { expect } from 'vitest';

export const scope: Scope = {
  body: null, rawBody: '', params: {}, headers: {}, steps: {}, state: {},
  env: { secret: () => undefined, variable: () => undefined, env: () => undefined, uuid: () => 'u-1' },
};

/** A dotted-path getter ("" is the data itself), like a lowered 'path' field. */
export const at = (path: string) => (d: unknown): unknown =>
  path === '' ? d : path.split('.').reduce<unknown>((v, k) => (v !== null && typeof v === 'object' && Object.hasOwn(v, k) ? (v as any)[k] : undefined), d);

export function frozen<T>(v: T): T {
  if (typeof v === 'object' && v !== null) {
    for (const k of Reflect.ownKeys(v)) frozen((v as any)[k]);
    Object.freeze(v);
  }
  return v;
}

/** Runs f (sync or async) and expects a TransformError whose message matches. */
export async function refuses(f: () => unknown, message: RegExp): Promise<void> {
  let err: unknown;
  try { await f(); } catch (e) { err = e; }
  expect(err, 'expected a TransformError').toBeInstanceOf(TransformError);
  expect((err as Error).message).toMatch(message);
}
