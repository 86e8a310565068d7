// The `http` action kind: one outbound request, or one per page with `pagination` (spec:
// HttpRequest, Errors, Authentication). Redirects are not followed: a 3xx is returned as is and,
// other than 304, fails the default expect_status, so a moved endpoint shows up instead of silently
// re-sending a body or credentials.
import type { ActionContext, ActionKind, ActionOutcome } from './types.ts';
import { exchange, exchangeOnce } from './http/exchange.ts';
import { paginate } from './http/pagination-run.ts';
import { firstUrl, prepare, type Plan } from './http/plan.ts';

export { closeHttpPools } from './http/pool.ts';
export { statusMatches } from './http/expect-status.ts';

/** Response bodies are buffered (decoding needs the whole document), so an upstream could make us
 *  hold arbitrary memory; 32 MiB covers realistic API payloads while bounding each in-flight call.
 *  With pagination it bounds all pages together. */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

export function createHttpAction(opts: { maxResponseBytes?: number } = {}): ActionKind {
  const maxBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const run = (p: Plan, ctx: ActionContext): Promise<ActionOutcome> => {
    if (!p.pagination) return exchangeOnce(p, ctx, maxBytes);
    // Each page may use the whole budget; paginate checks the running total.
    return paginate(p.pagination, firstUrl(p), (url, n) => exchange(p, url, n, ctx, maxBytes), maxBytes);
  };
  // Not async: a request costs one promise here, not three (this runs for every item of a lookup).
  return (config, ctx) => {
    let plan: Plan | Promise<Plan>;
    try { plan = prepare(config, ctx); } catch (e) { return Promise.resolve(unprepared(e)); }
    return plan instanceof Promise ? plan.then((p) => run(p, ctx), unprepared) : run(plan, ctx);
  };
}

/** A config the action cannot send (a bad URL, header or option): failed, nothing sent. */
const unprepared = (e: unknown): ActionOutcome => ({ ok: false, error: (e as Error).message, failure: { kind: 'other' } });

export const http: ActionKind = createHttpAction();
