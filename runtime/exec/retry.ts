// Retry rules (spec: Retry rules): which failures are retried and how long to wait between attempts.
import type { RetryIR } from '../config-ir.ts';
import type { ActionOutcome } from '../actions/types.ts';

const DEFAULT_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

/** What the rules read of a failed attempt. */
export type Attempt = Pick<ActionOutcome, 'failure' | 'retryAfterMs'>;

type Failure = Exclude<NonNullable<ActionOutcome['failure']>, { kind: 'other' }>;

/** One `on`/`except` entry against a status or transport failure. The schema admits codes as
 *  numbers and, as strings, only classes (`5xx`), `any`, `timeout` and `connect`. */
function matches(m: number | string, f: Failure): boolean {
  if (m === 'any') return true;
  if (f.kind === 'transport') return m === f.cls;
  if (typeof m === 'number') return m === f.status;
  return `${Math.floor(f.status / 100)}xx` === m;
}

/** Whether a failed attempt is worth another: HTTP by status/transport class, everything else always,
 *  except a refusal (a hostile value, a denied destination), which no attempt can change.
 *  (An HTTP action reaches here failed, or succeeded with a failed assert: that one polls.) */
export function isRetryable(r: RetryIR, o: Attempt, isHttp: boolean, assertFailed: boolean): boolean {
  const f = o.failure;
  if (f?.kind === 'refused') return false;
  if (!isHttp || assertFailed) return true;
  // Neither a status nor a transport failure (a body that does not decode, a page that failed): not retried.
  if (!f || f.kind === 'other') return false;
  const included = r.on ? r.on.some((m) => matches(m, f)) : f.kind === 'transport' || DEFAULT_STATUSES.has(f.status);
  return included && !r.except?.some((m) => matches(m, f));
}

/** The wait before attempt `next` (2-based): jittered backoff, or the upstream's Retry-After as asked. */
export function nextWait(r: RetryIR, next: number, o: Attempt, random: () => number = Math.random): number {
  const cap = (ms: number) => (r.maxDelay !== undefined ? Math.min(ms, r.maxDelay) : ms);
  if (r.respectRetryAfter && o.retryAfterMs !== undefined) return cap(o.retryAfterMs);
  const wait = cap(r.exponential ? r.delay * 2 ** (next - 2) : r.delay);
  return r.jitter === 'none' ? wait : Math.floor(random() * wait);
}
