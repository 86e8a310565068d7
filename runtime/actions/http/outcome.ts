// One response → the action outcome: expect_status, body decoding, Retry-After.
import type { ActionContext, ActionOutcome } from '../types.ts';
import type { DataType } from './data-type.ts';
import { decodeBody } from './decode-body.ts';
import { describeExpectation, statusMatches } from './expect-status.ts';
import { flattenHeaders, retryAfterMs } from './response-meta.ts';
import type { RawResponse } from './send.ts';

/** `where` (method and URL, for messages) is made only for a failure. */
export function outcome(res: RawResponse, expect: unknown, declared: DataType | undefined, where: () => string, ctx: ActionContext): ActionOutcome {
  const { status } = res;
  const headers = flattenHeaders(res.headers);
  const ok = statusMatches(expect as never, status);
  // A failed status's body is decoded leniently: error pages are often HTML whatever data_type says.
  const dec = decodeBody(res.body, { status, contentType: headers['content-type'], declared, lenient: !ok });
  // One object, fields set in one order (no spread copies: this runs for every response).
  const out: ActionOutcome = { ok, status, headers, data: dec.data };
  // The clock is read only for a Retry-After (a date's wait counts from now): most responses have none.
  const wait = headers['retry-after'];
  const retryAfter = wait === undefined ? undefined : retryAfterMs(wait, ctx.services?.clock?.now() ?? Date.now());
  if (retryAfter !== undefined) out.retryAfterMs = retryAfter;
  if (!ok) {
    out.error = `HTTP ${status} from ${where()} (expected ${describeExpectation(expect as never)})`;
    out.failure = { kind: 'status', status };
  } else if (dec.error) {
    out.ok = false;
    out.error = `${dec.error} (${where()})`;
    out.failure = { kind: 'other' };
  }
  return out;
}
