// The `http` action kind: one outbound request, or one per page with `pagination` (spec:
// HttpRequest, Errors, Authentication). Redirects are not followed: a 3xx is returned as is and,
// other than 304, fails the default expect_status, so a moved endpoint shows up instead of silently
// re-sending a body or credentials.
import type { ActionKind } from './types.ts';
import { exchange } from './http/exchange.ts';
import { paginate } from './http/pagination-run.ts';
import { prepare } from './http/plan.ts';

export { closeHttpPools } from './http/pool.ts';
export { statusMatches } from './http/expect-status.ts';

/** Response bodies are buffered (decoding needs the whole document), so an upstream could make us
 *  hold arbitrary memory; 32 MiB covers realistic API payloads while bounding each in-flight call.
 *  With pagination it bounds all pages together. */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

export function createHttpAction(opts: { maxResponseBytes?: number } = {}): ActionKind {
  const maxBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  return async (config, ctx) => {
    let plan;
    try {
      plan = prepare(config, ctx);
      if (plan instanceof Promise) plan = await plan;
    } catch (e) { return { ok: false, error: (e as Error).message, failure: { kind: 'other' } }; }
    const p = plan;
    if (!p.pagination) return (await exchange(p, p.url, 1, ctx, maxBytes)).out;
    // Each page may use the whole budget; paginate checks the running total.
    return paginate(p.pagination, p.url, (url, n) => exchange(p, url, n, ctx, maxBytes), maxBytes);
  };
}

export const http: ActionKind = createHttpAction();
