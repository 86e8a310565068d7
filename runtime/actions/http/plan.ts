// Config → everything needed to send: validated before any request, so a config mistake fails the
// action without traffic. Header precedence, lowest first: passed-through incoming headers, the
// body's content-type, auth settings, the idempotency key, then the configured `headers`.
import type { TraceHeaders } from '../../tracing.ts';
import { copyRecord } from '../../values/build.ts';
import type { ActionContext } from '../types.ts';
import { planAuth } from './auth.ts';
import { normalizeDataType, type DataType } from './data-type.ts';
import { boundedDurationMs } from '../../values/bounds.ts';
import { encodeBody } from './encode-body.ts';
import { idempotencyHeader, type IdempotencyHeader } from './idempotency.ts';
import { encodeMultipart } from './multipart.ts';
import { parsePagination, type PaginationPlan } from './pagination.ts';
import { passQuery, passthrough, type Passthrough } from './passthrough.ts';
import type { TransportOptions } from './pool.ts';
import { requestHeaders } from './request-headers.ts';
import { parseTarget, targetOf, urlOf, type Parsed, type Target } from './target.ts';
import { tlsOptions } from './tls.ts';

export interface Plan {
  method: string;
  /** The first request's URL when it is not the configured one as written (userinfo removed, as it
   *  became Basic auth; the request's query added); else undefined: firstUrl makes it on demand. */
  url: URL | undefined;
  /** The configured URL. */
  parsed: Parsed;
  /** What the first request is sent to (a later page's URL is split when it is sent). */
  target: Target;
  headers: Record<string, string | string[]>;
  body?: Buffer;
  declared?: DataType;
  digest?: { user: string; pass: string };
  idempotency?: IdempotencyHeader;
  timeoutMs?: number;
  transport: TransportOptions;
  expect: unknown;
  pagination?: PaginationPlan;
}

/** The plan; a promise only when a multipart body is to be encoded (it may read files), so the
 *  common request costs no promise and no turn here. Runs for every request (every lookup item):
 *  no closures, no spreads, one plan object filled in once the body is known. */
export function prepare(config: Record<string, any>, ctx: ActionContext): Plan | Promise<Plan> {
  const parsed = parseTarget(config.url); // shared with other requests of the same URL: copied before a change
  const request = ctx.run?.request;
  const pass = passthrough(config, request);
  const method = pass.method ?? (config.method == null ? 'GET' : String(config.method));
  // Userinfo never reaches the origin, path or display (it became Basic auth); only the request's
  // query changes the path. Otherwise no URL object is made (a lookup item's URL is not parsed).
  let url: URL | undefined;
  if (parsed.target.userinfo) { url = new URL(urlOf(parsed).href); url.username = url.password = ''; }
  if (pass.query) {
    url ??= new URL(urlOf(parsed).href);
    passQuery(url, request);
  }
  const declared = normalizeDataType(config.data_type);
  const configured = requestHeaders(config.headers);
  // The configured header wins over the idempotency setting.
  const idemSetting = config.idempotency == null ? undefined : idempotencyHeader(config.idempotency, () => ctx.executionId);
  // Validated before the body, which may read files; headers, body and digest are set by withBody.
  const plan: Plan = {
    method, url, parsed, target: pass.query ? targetOf(url!) : parsed.target, headers: {}, body: undefined, declared, digest: undefined,
    idempotency: idemSetting && !(idemSetting.name in configured) ? idemSetting : undefined,
    timeoutMs: boundedDurationMs(config.timeout, 'timeout'),
    transport: {
      connectTimeoutMs: boundedDurationMs(config.connect_timeout, 'connect_timeout'),
      proxy: proxyUrl(config.proxy),
      tls: tlsOptions(config),
    },
    expect: config.expect_status as unknown,
    pagination: config.pagination == null ? undefined : parsePagination(config.pagination),
  };
  const multipartSet = config.multipart != null || config.multipart_form != null || config.multipart_files != null;
  return multipartSet
    ? encodeMultipart(config).then((m) => withBody(plan, config, pass, configured, parsed.target, m, ctx.trace))
    : withBody(plan, config, pass, configured, parsed.target, undefined, ctx.trace);
}

/** The first request's URL (pagination builds the next pages' from it). */
export const firstUrl = (p: Plan): URL => p.url ?? urlOf(p.parsed);

type Multipart = Awaited<ReturnType<typeof encodeMultipart>>;

/** The plan's body and headers. `target`: the configured URL's, with its userinfo. */
function withBody(plan: Plan, config: Record<string, any>, pass: Passthrough, configured: Plan['headers'], target: Target, multipart: Multipart, trace: TraceHeaders | undefined): Plan {
  const { body, contentType } = planBody(config, plan.declared, pass, 'content-type' in configured, multipart);
  const headers: Plan['headers'] = copyRecord(pass.headers); // extended below: not a spread copy (values/build.ts)
  if (contentType) headers['content-type'] = contentType;
  // An explicit Authorization header (e.g. built with interpolation) wins over the auth settings;
  // the settings win over an Authorization passed through from the incoming request.
  const auth = 'authorization' in configured ? {} : planAuth(config, target.userinfo);
  if (auth.header || auth.digest) delete headers.authorization;
  if (auth.header) headers.authorization = auth.header;
  if (plan.idempotency) delete headers[plan.idempotency.name]; // a passed-through one: the setting wins over the client's
  // Tracing on: the attempt's span is the callee's parent (over a passed-through client's context;
  // a configured header still wins).
  if (trace) {
    headers.traceparent = trace.traceparent;
    if (trace.tracestate) headers.tracestate = trace.tracestate;
    else delete headers.tracestate;
  }
  Object.assign(headers, configured);
  plan.headers = headers;
  plan.body = body;
  plan.digest = auth.digest;
  return plan;
}

function planBody(config: Record<string, any>, declared: DataType | undefined, pass: Passthrough, ctConfigured: boolean, multipart: Multipart): { body?: Buffer; contentType?: string } {
  const encoded = encodeBody(config, declared);
  if ((encoded.body ? 1 : 0) + (multipart ? 1 : 0) + (pass.body ? 1 : 0) > 1) {
    const sources = [encoded.body && 'body/base64_bytes', multipart && 'multipart', pass.body && 'proxy_body'].filter(Boolean);
    throw new Error(`set only one request body: ${sources.join(', ')}`);
  }
  if (multipart) {
    // The boundary lives in the content-type; a configured one could not match the body.
    if (ctConfigured) throw new Error('a multipart request sets its own content-type (with the boundary); remove it from headers');
    return multipart;
  }
  return pass.body ? { body: pass.body, contentType: pass.contentType } : encoded;
}

/** null means no proxy; an empty string is refused rather than silently going direct. */
function proxyUrl(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  let u: URL | undefined;
  try { u = new URL(String(v)); } catch { /* reported below */ }
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:')) throw new Error('http.proxy must be an http:// or https:// URL');
  return u.href;
}
