// One response → the action outcome: expect_status, body decoding, Retry-After.
import type { ActionContext, ActionOutcome } from '../types.ts';
import type { DataType } from './data-type.ts';
import { decodeBody } from './decode-body.ts';
import { describeExpectation, statusMatches } from './expect-status.ts';
import { flattenHeaders, retryAfterMs } from './response-meta.ts';
import type { RawResponse } from './send.ts';

export function outcome(res: RawResponse, expect: unknown, declared: DataType | undefined, where: string, ctx: ActionContext): ActionOutcome {
  const { status } = res;
  const headers = flattenHeaders(res.headers);
  const ok = statusMatches(expect as never, status);
  // A failed status's body is decoded leniently: error pages are often HTML whatever data_type says.
  const dec = decodeBody(res.body, { status, contentType: headers['content-type'], declared, lenient: !ok });
  const retryAfter = retryAfterMs(headers['retry-after'], ctx.services?.clock?.now() ?? Date.now());
  const base = { status, headers, data: dec.data, ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }) };
  if (!ok) {
    const error = `HTTP ${status} from ${where} (expected ${describeExpectation(expect as never)})`;
    return { ...base, ok: false, error, failure: { kind: 'status', status } };
  }
  if (dec.error) return { ...base, ok: false, error: `${dec.error} (${where})`, failure: { kind: 'other' } };
  return { ...base, ok: true };
}
