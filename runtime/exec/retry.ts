// Retry rules (spec: Retry rules): which failures are retried and how long to wait between attempts.
import type { RetryIR } from '../config-ir.ts';
import type { ActionOutcome } from '../actions/types.ts';

const DEFAULT_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

function matches(m: number | string, o: ActionOutcome): boolean {
  const f = o.failure;
  if (!f) return false;
  if (m === 'any') return true;
  if (f.kind === 'status') {
    // The schema admits only codes as numbers and the words below as strings.
    if (typeof m === 'number') return m === f.status;
    const cls = /^([1-5])xx$/.exec(String(m));
    return cls !== null && Math.floor(f.status / 100) === Number(cls[1]);
  }
  if (f.kind === 'transport') return m === f.cls;
  return false;
}

/** Whether a failed attempt is worth another: HTTP by status/transport class, everything else always. */
export function isRetryable(r: RetryIR, o: ActionOutcome, isHttp: boolean, assertFailed: boolean): boolean {
  if (!isHttp || (o.ok && assertFailed)) return true;
  const f = o.failure;
  if (!f || f.kind === 'other' || f.kind === 'refused') return false;
  const included = r.on ? r.on.some((m) => matches(m, o)) : f.kind === 'transport' || DEFAULT_STATUSES.has(f.status);
  return included && !(r.except ?? []).some((m) => matches(m, o));
}

/** The wait before attempt `next` (2-based): jittered backoff, or the upstream's Retry-After as asked. */
export function nextWait(r: RetryIR, next: number, o: ActionOutcome, random: () => number = Math.random): number {
  const cap = (ms: number) => (r.maxDelay !== undefined ? Math.min(ms, r.maxDelay) : ms);
  if (r.respectRetryAfter && o.retryAfterMs !== undefined) return cap(o.retryAfterMs);
  const wait = cap(r.exponential ? r.delay * 2 ** (next - 2) : r.delay);
  return r.jitter === 'none' ? wait : Math.floor(random() * wait);
}
