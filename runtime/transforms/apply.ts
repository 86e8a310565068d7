// Runs one transform; anything it throws becomes a clean TransformError naming the transform and line.
import type { Scope } from '../scope.ts';
import { TransformError, type TransformRun } from './types.ts';
import { Refused } from '../refused.ts';

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

function clean(op: string, line: number, e: unknown): Error {
  const msg = e instanceof Error ? e.message : String(e);
  // A refusal (a bound the request's data exceeded) keeps its status.
  if (e instanceof Refused) return msg.startsWith(op) ? e : new Refused(`${op} (line ${line}): ${msg}`, e.status);
  return new TransformError(msg.startsWith(op) ? msg : `${op} (line ${line}): ${msg}`);
}
