// Regexes in jq run on Oniguruma, a backtracking engine: `test("(a+)+$")` on a long input takes
// exponential time. A program that can reach a regex runs in a worker with a deadline (the request path:
// runtime/jq/pool.ts, awaited; a synchronous caller: runtime/jq/deep.ts); when it passes, the worker is
// terminated (replaced on next need) and the call fails naming it.
import { JqError } from './errors.ts';

export { mayRunRegex } from './uses-regex.ts';

export const DEFAULT_REGEX_TIMEOUT_MS = 1000;
const MAX_REGEX_TIMEOUT_MS = 60_000;

/** SERVICE__JQ_REGEX_TIMEOUT_MS (1000, 10 to 60000); a malformed value is an error naming it. */
export function regexTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.SERVICE__JQ_REGEX_TIMEOUT_MS;
  if (raw === undefined || raw === '') return DEFAULT_REGEX_TIMEOUT_MS;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 10 || n > MAX_REGEX_TIMEOUT_MS) {
    throw new Error(`SERVICE__JQ_REGEX_TIMEOUT_MS=${raw} must be a whole number of milliseconds between 10 and ${MAX_REGEX_TIMEOUT_MS}`);
  }
  return n;
}

/** The error of a regex program given up at the deadline. */
export function regexTimeout(ms: number): JqError {
  return new JqError(`jq engine: the program did not finish within ${ms} ms (SERVICE__JQ_REGEX_TIMEOUT_MS; a regex can take exponential time)`);
}

/** The error of a regex program refused because the pool's line is full (runtime/jq/pool.ts). */
export function regexBusy(waiting: number): JqError {
  return new JqError(`jq engine: ${waiting} regex programs are already waiting for a worker; try again later`);
}
