// Runs one transform; anything it throws becomes a clean TransformError naming the transform and line.
import type { Scope } from '../scope.ts';
import { TransformError, type TransformRun } from './types.ts';

export function applyTransform(op: string, line: number, run: TransformRun, data: unknown, args: unknown, s: Scope): unknown {
  try {
    return run(data, args, s);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    throw new TransformError(msg.startsWith(op) ? msg : `${op} (line ${line}): ${msg}`);
  }
}
