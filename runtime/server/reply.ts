// HttpResponse → bytes: strings as text (or JSON when they hold JSON and no type is set), everything
// else as compact JSON. The same function serves the fast path, the interpreter and `pipewright run`.
import type { HttpResponse } from '../exec/response.ts';
import { copyRecord } from '../values/build.ts';

export interface Encoded {
  status: number;
  headers: Record<string, string>;
  payload: string;
  /** JSON.stringify(r.body), when the payload is exactly that (the run record reuses it). */
  bodyJson?: string;
}

export function encodeResponse(r: HttpResponse, output: 'http' | 'cli' | 'none' = 'http'): Encoded {
  const headers = copyRecord(r.headers); // extended below: not a spread copy (values/build.ts)
  for (const k in headers) if (!validHeader(k, headers[k]!)) return refuseHeader(k);
  if (output === 'none' && r.status < 400) return { status: 204, headers, payload: '' };
  if (typeof r.body === 'string') {
    headers['content-type'] ??= looksJson(r.body) ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8';
    return { status: r.status, headers, payload: r.body };
  }
  headers['content-type'] ??= 'application/json; charset=utf-8';
  if (r.body === undefined) return { status: r.status, headers, payload: 'null' };
  const payload = JSON.stringify(r.body);
  return { status: r.status, headers, payload, bodyJson: payload };
}

function looksJson(s: string): boolean {
  const t = s.trimStart()[0];
  if (t !== '{' && t !== '[') return false;
  try { JSON.parse(s); return true; } catch { return false; }
}

/** What node would refuse to send (a line break, NUL or other control character): never split a header. */
function validHeader(name: string, value: string): boolean {
  return /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) && !/[^\t\x20-\x7e\x80-\xff]/.test(value);
}

/** A header value copied from the request carried a control character: the client's fault, a 400. */
function refuseHeader(name: string): Encoded {
  const message = `response header ${JSON.stringify(name)} would carry a line break or control character (from the request): refused`;
  return { status: 400, headers: { 'content-type': 'application/json; charset=utf-8' }, payload: JSON.stringify({ error: { status: 400, message } }) };
}
