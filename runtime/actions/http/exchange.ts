// One request of a plan (a page, when paginating) → its outcome. `timeout` bounds each request on
// its own; the action's signal (its `timeout`, run cancellation) bounds the whole action.
import { withOwn } from '../../values/build.ts';
import type { ActionContext, ActionOutcome } from '../types.ts';
import { digestAuthorization, pickDigestChallenge } from './digest.ts';
import { pageKey } from './idempotency.ts';
import { outcome } from './outcome.ts';
import type { Plan } from './plan.ts';
import { getDispatcher } from './pool.ts';
import type { Dispatcher } from 'undici';
import { flattenHeaders } from './response-meta.ts';
import { send, type RawResponse, type SendOptions } from './send.ts';
import type { Abortable } from '../../run-cancel.ts';
import { targetOf } from './target.ts';
import { preflight } from '../../network/dialer.ts';
import { Refused } from '../../refused.ts';
import { HttpTimeoutError, SendError, classify } from './transport-error.ts';

export interface Exchanged { out: ActionOutcome; bytes: number }

/** `url`: a page's, or undefined for the plan's own target; `page` is 1-based; `maxBytes` the
 *  response-byte budget left for this request. Not async: the
 *  request's promise is mapped once (an async function here cost a suspension and a resumption on
 *  every request); every failure, thrown or rejected, becomes a failed outcome. */
export function exchange(plan: Plan, url: URL | undefined, page: number, ctx: ActionContext, maxBytes: number): Promise<Exchanged> {
  return exchangeAs(plan, url, page, ctx, maxBytes, withBytes);
}

/** One request without pagination: its outcome alone (no byte count to carry, and no second
 *  promise, with its turn, to take the outcome out of an Exchanged on every request). */
export function exchangeOnce(plan: Plan, ctx: ActionContext, maxBytes: number): Promise<ActionOutcome> {
  return exchangeAs(plan, undefined, 1, ctx, maxBytes, outcomeOnly);
}

const withBytes = (out: ActionOutcome, bytes: number): Exchanged => ({ out, bytes });
const outcomeOnly = (out: ActionOutcome): ActionOutcome => out;

function exchangeAs<T>(plan: Plan, url: URL | undefined, page: number, ctx: ActionContext, maxBytes: number, as: (out: ActionOutcome, bytes: number) => T): Promise<T> {
  const { method, body, timeoutMs } = plan;
  const target = url === undefined ? plan.target : targetOf(url); // a later page's URL is always a new one
  const where = () => `${method} ${target.display}`;
  // The plan's headers as they are, unless this page adds its idempotency key (never mutated after).
  const headers = plan.idempotency ? withOwn(plan.headers, plan.idempotency.name, pageKey(plan.idempotency, page)) : plan.headers;
  // A signal only where something can abort: the request's own timeout and/or the action's signal.
  const timer = timeoutMs === undefined ? undefined : new AbortController();
  const t = timer && setTimeout(() => timer.abort(new HttpTimeoutError(`timed out after ${timeoutMs}ms`)), timeoutMs);
  // Without one, the run's cancellation alone is listened to, as it is (no AbortSignal made).
  const cancel = timer ? undefined : ctx.cancel;
  const outer = cancel ? undefined : ctx.signal;
  const signal = cancel ?? (timer && outer ? AbortSignal.any([outer, timer.signal]) : timer?.signal ?? outer);
  const fail = (e: unknown): T => { clearTimeout(t); return as(failed(e, where()), 0); };
  const answer = (res: RawResponse): T => {
    clearTimeout(t);
    let out: ActionOutcome;
    try { out = outcome(res, plan.expect, plan.declared, where, ctx); } catch (e) { return as(failed(e, where()), 0); }
    return as(out, res.body.length);
  };
  let response: Promise<RawResponse>;
  try {
    const base = { origin: target.origin, method, path: target.path, headers, body };
    // In a test case requests go to its recordings (no pool made, no proxy's name resolved); while
    // recording, through the action's own pool (its proxy and TLS), recorded.
    const s = ctx.services.standIns;
    const replay = s && !s.around ? s.dispatcher : undefined;
    const vetted = preflight(target.origin, replay ? undefined : plan.transport.proxy);
    const pool = (): Dispatcher => {
      if (replay) return replay;
      const real = getDispatcher(base.origin, plan.transport);
      return s?.around ? s.around(real) : real;
    };
    response = vetted ? vetted.then(() => request(plan, base, signal, maxBytes, pool())) : request(plan, base, signal, maxBytes, pool());
  } catch (e) {
    return Promise.resolve(fail(e));
  }
  return response.then(answer, fail);
}

/** The request, and once more with digest credentials when a 401 asks for them. */
function request(plan: Plan, base: SendOptions, signal: Abortable | undefined, maxBytes: number, dispatcher: Dispatcher): Promise<RawResponse> {
  const first = send(dispatcher, base, signal, maxBytes);
  if (!plan.digest) return first;
  const digest = plan.digest;
  return first.then((res) => {
    if (res.status !== 401) return res;
    const challenge = pickDigestChallenge(flattenHeaders(res.headers)['www-authenticate']);
    const authorization = challenge && digestAuthorization(challenge, { ...digest, method: base.method, uri: base.path, body: base.body });
    return authorization ? send(dispatcher, withOwn(base, 'headers', withOwn(base.headers, 'authorization', authorization)), signal, maxBytes) : res;
  });
}

function failed(e: unknown, where: string): ActionOutcome {
  const refused = e instanceof SendError ? e.cause : e;
  if (refused instanceof Refused) return { ok: false, error: `${refused.message} (${where})`, failure: { kind: 'refused', status: refused.status } };
  if (!(e instanceof SendError)) return { ok: false, error: `${(e as Error).message} (${where})`, failure: { kind: 'other' } };
  const p = e.progress;
  const cls = classify(e);
  const when = p.aborted && !p.sent && cls === 'connect' ? ' before the connection was established' : '';
  return {
    ok: false, error: `${e.message}${when} (${where})`, failure: { kind: 'transport', cls },
    ...(p.status ? { status: p.status, headers: flattenHeaders(p.headers ?? {}) } : {}),
  };
}
