// Runs one transform; anything it throws becomes a clean TransformError naming the transform and line.
import type { Scope } from '../scope.ts';
import { TransformError, type TransformRun } from './types.ts';

export function applyTransform(op: string, line: number, run: TransformRun, data: unknown, args: unknown, s: Scope): unknown {
  try {
    return run(data, args, s);
  } catch (e) {
    throw clean(op, line, e);
  }
}

/** The same for transforms whose `run` returns a Promise. */
export async function applyTransformAsync(op: string, line: number, run: TransformRun, data: unknown, args: unknown, s: Scope): Promise<unknown> {
  try {
    return await run(data, args, s);
  } catch (e) {
    throw clean(op, line, e);
  }
}

function clean(op: string, line: number, e: unknown): TransformError {
  const msg = e instanceof Error ? e.message : String(e);
  return new TransformError(msg.startsWith(op) ? msg : `${op} (line ${line}): ${msg}`);
}
