// The `http` action kind: one outbound request (spec: HttpRequest, Errors, Authentication).
// Redirects are not followed: a 3xx is returned as is and, other than 304, fails the default
// expect_status, so a moved endpoint shows up instead of silently re-sending a body or credentials.
import type { ActionContext, ActionKind, ActionOutcome } from './types.ts';
import { planAuth } from './http/auth.ts';
import { normalizeDataType, type DataType } from './http/data-type.ts';
import { decodeBody } from './http/decode-body.ts';
import { digestAuthorization, pickDigestChallenge } from './http/digest.ts';
import { parseDuration } from './http/duration.ts';
import { encodeBody } from './http/encode-body.ts';
import { describeExpectation, statusMatches } from './http/expect-status.ts';
import { getPool } from './http/pool.ts';
import { requestHeaders } from './http/request-headers.ts';
import { flattenHeaders, retryAfterMs } from './http/response-meta.ts';
import { send, type RawResponse } from './http/send.ts';
import { parseTarget } from './http/target.ts';
import { HttpTimeoutError, SendError, classify } from './http/transport-error.ts';

export { closeHttpPools } from './http/pool.ts';
export { statusMatches } from './http/expect-status.ts';

/** Response bodies are buffered (decoding needs the whole document), so an upstream could make us
 *  hold arbitrary memory; 32 MiB covers realistic API payloads while bounding each in-flight call. */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

// Settings of the spec's HttpRequest this kind does not implement yet: refuse rather than ignore
// (an ignored proxy or CA would send traffic somewhere other than configured).
const UNSUPPORTED = ['proxy', 'multipart', 'multipart_form', 'multipart_files', 'pagination', 'ca', 'root_certificates', 'accept_invalid_certs'];

export function createHttpAction(opts: { maxResponseBytes?: number } = {}): ActionKind {
  const maxBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  return async (config, ctx) => {
    const method = config.method === undefined || config.method === null ? 'GET' : String(config.method);
    let req;
    try { req = prepare(config, method); } catch (e) { return { ok: false, error: (e as Error).message, failure: { kind: 'other' } }; }
    const { target, headers, body, declared, digest, timeoutMs, pool } = req;
    const where = `${method} ${target.display}`;
    const timer = new AbortController();
    const t = timeoutMs === undefined ? undefined
      : setTimeout(() => timer.abort(new HttpTimeoutError(`timed out after ${timeoutMs}ms`)), timeoutMs);
    const signal = ctx.signal ? AbortSignal.any([ctx.signal, timer.signal]) : timer.signal;
    try {
      const base = { method, path: target.path, headers, body };
      let res = await send(pool, base, signal, maxBytes);
      if (res.status === 401 && digest) {
        const challenge = pickDigestChallenge(flattenHeaders(res.headers)['www-authenticate']);
        const authorization = challenge && digestAuthorization(challenge, { ...digest, method, uri: target.path, body });
        if (authorization) res = await send(pool, { ...base, headers: { ...headers, authorization } }, signal, maxBytes);
      }
      return outcome(res, config.expect_status, declared, where, ctx);
    } catch (e) {
      if (!(e instanceof SendError)) return { ok: false, error: `${(e as Error).message} (${where})`, failure: { kind: 'other' } };
      const p = e.progress;
      const cls = classify(e);
      const when = p.aborted && !p.sent && cls === 'connect' ? ' before the connection was established' : '';
      return {
        ok: false, error: `${e.message}${when} (${where})`, failure: { kind: 'transport', cls },
        ...(p.status ? { status: p.status, headers: flattenHeaders(p.headers ?? {}) } : {}),
      };
    } finally {
      clearTimeout(t);
    }
  };
}

export const http: ActionKind = createHttpAction();

function prepare(config: Record<string, any>, method: string) {
  for (const k of UNSUPPORTED) if (config[k] !== undefined && config[k] !== null) throw new Error(`http.${k} is not supported yet`);
  const target = parseTarget(config.url);
  const declared = normalizeDataType(config.data_type);
  const headers = requestHeaders(config.headers);
  const { body, contentType } = encodeBody(config, declared);
  if (contentType && !('content-type' in headers)) headers['content-type'] = contentType;
  // An explicit Authorization header (e.g. built with interpolation) wins over the auth settings.
  const auth = 'authorization' in headers ? {} : planAuth(config, target.userinfo);
  if (auth.header) headers.authorization = auth.header;
  const timeoutMs = config.timeout == null ? undefined : parseDuration(config.timeout);
  const connectMs = config.connect_timeout == null ? undefined : parseDuration(config.connect_timeout);
  return { target, headers, body, declared, digest: auth.digest, timeoutMs, pool: getPool(target.origin, connectMs) };
}

function outcome(res: RawResponse, expect: unknown, declared: DataType | undefined, where: string, ctx: ActionContext): ActionOutcome {
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
