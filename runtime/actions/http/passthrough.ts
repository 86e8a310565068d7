// Reverse-proxy passthrough (proxy_body, proxy_method, proxy_query, proxy_headers): parts of the
// incoming request (ctx.run.request) copied onto the outbound one. Whatever the config sets itself
// (method aside: proxy_method is the explicit ask) wins over what is passed through.
import type { RequestData } from '../../run-state.ts';
import { appendParams, queryNames } from './url-query.ts';

// Hop-by-hop (RFC 9110 §7.6.1) plus what describes this connection or the incoming body's framing:
// forwarding them would corrupt the outbound message (undici also refuses several of them).
const NEVER = new Set(['connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade',
  'proxy-authorization', 'proxy-authenticate', 'proxy-connection', 'host', 'content-length', 'expect',
  // Bodies are buffered and decoded here without decompression, so the upstream must not compress
  // for the incoming client's sake; content-type comes with proxy_body, never alone.
  'accept-encoding', 'content-type']);

export interface Passthrough { method?: string; body?: Buffer; contentType?: string; headers: Record<string, string>; /** proxy_query: the incoming query is appended (passQuery). */ query: boolean }

export function passthrough(config: Record<string, unknown>, request: RequestData | undefined): Passthrough {
  // Named reads (this runs for every request): a read by a computed name is a megamorphic lookup.
  const body = on(config.proxy_body), method = on(config.proxy_method), sel = config.proxy_headers;
  const out: Passthrough = { headers: {}, query: on(config.proxy_query) };
  if (!body && !method && !out.query && (sel == null || sel === false)) return out;
  if (!request) throw new Error('proxy_* passthrough needs an incoming request');
  if (method) out.method = request.method;
  if (body && request.rawBody !== '') {
    // rawBody is the body as text (the server reads it as UTF-8), so binary bodies do not survive.
    out.body = Buffer.from(request.rawBody, 'utf8');
    out.contentType = request.headers['content-type'];
  }
  out.headers = passedHeaders(sel, request.headers);
  return out;
}

const on = (v: unknown) => v === true || v === 'true';

function passedHeaders(sel: unknown, incoming: Record<string, string>): Record<string, string> {
  if (sel == null || sel === false || sel === 'false') return {};
  if (sel !== true && sel !== 'true' && !Array.isArray(sel)) throw new Error('http.proxy_headers must be a boolean or an array of header names');
  const only = Array.isArray(sel) ? new Set(sel.map((n) => String(n).toLowerCase())) : undefined;
  // Names the client listed in its Connection header are hop-by-hop too.
  const listed = new Set((incoming.connection ?? '').split(',').map((s) => s.trim().toLowerCase()));
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(incoming)) {
    const name = k.toLowerCase();
    if (NEVER.has(name) || listed.has(name) || (only && !only.has(name))) continue;
    out[name] = v;
  }
  return out;
}

/** proxy_query: the incoming query parameters appended to `url`; a name the URL already has wins.
 *  RequestData keeps query and route parameters merged in `params`, so route parameters are sent
 *  too; a `query` map on the request, when present, is used instead. */
export function passQuery(url: URL, request: RequestData | undefined): void {
  const params = (request as { query?: Record<string, string> } | undefined)?.query ?? request?.params ?? {};
  const configured = queryNames(url);
  appendParams(url, Object.entries(params).filter(([k]) => !configured.has(k)).map(([k, v]) => [k, String(v)]));
}
