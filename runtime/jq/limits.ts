// The engine's limits, and the one error a program that exceeds them gets (never a crash of the host).
import { JqError } from './errors.ts';
import { JqBound } from './bounds.ts';

/** The wasm stack (vendor/build/build.sh TOTAL_STACK) and the most memory jq may grow to. */
export const STACK_MB = 64;
export const MEMORY_MB = 1024;
/** The deep worker's JS stack (runtime/jq/deep.ts). */
const DEEP_STACK_MB = 256;

/** A trap or abort inside the engine, as a jq error naming the limit it hit. */
export function engineFailure(err: unknown): JqError | JqBound {
  const text = String((err as Error)?.message ?? err);
  if (err instanceof RangeError || /stack overflow/i.test(text)) {
    return new JqError(`jq engine: the program nests or recurses too deeply (stack limits: ${DEEP_STACK_MB} MB JS, ${STACK_MB} MB wasm)`);
  }
  if (/cannot allocate memory|out of memory|Cannot enlarge memory/i.test(text)) return new JqBound(`jq engine: out of memory (limit ${MEMORY_MB} MB)`);
  return new JqError(`jq engine failed: ${text.replace(/\. Build with -sASSERTIONS.*/, '')}`);
}
