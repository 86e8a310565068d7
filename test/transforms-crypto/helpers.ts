// Helpers for the crypto/codec transform tests: run a transform through the registry (as both
// execution paths do) and assert that failures are clean TransformErrors without secrets.
import { expect } from 'vitest';
import { transforms } from '../../runtime/transforms/index.ts';
import { TransformError } from '../../runtime/transforms/types.ts';
import { scope } from '../transforms/helpers.ts';

export { frozen, hostile, clean } from '../transforms/helpers.ts';

export const t = (name: string, data: unknown, args: unknown): any => transforms[name]!.run(data, args, scope);

/** Runs (sync or async) and returns the TransformError it failed with; fails the test otherwise. */
export async function failure(name: string, data: unknown, args: unknown, ...secrets: string[]): Promise<TransformError> {
  let err: unknown;
  try {
    await t(name, data, args);
  } catch (e) {
    err = e;
  }
  expect(err, `${name} should fail`).toBeInstanceOf(TransformError);
  const msg = (err as Error).message;
  expect(msg.startsWith(name)).toBe(true);
  for (const s of secrets) expect(msg).not.toContain(s);
  return err as TransformError;
}
