// HttpResponse → bytes: strings as text (or JSON when they hold JSON and no type is set), everything
// else as compact JSON. The same function serves the fast path, the interpreter and `pipewright run`.
import type { HttpResponse } from '../exec/response.ts';

export interface Encoded {
  status: number;
  headers: Record<string, string>;
  payload: string;
}

export function encodeResponse(r: HttpResponse, output: 'http' | 'cli' | 'none' = 'http'): Encoded {
  const headers = { ...r.headers };
  if (output === 'none' && r.status < 400) return { status: 204, headers, payload: '' };
  let payload: string;
  if (typeof r.body === 'string') {
    payload = r.body;
    headers['content-type'] ??= looksJson(r.body) ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8';
  } else {
    payload = JSON.stringify(r.body === undefined ? null : r.body);
    headers['content-type'] ??= 'application/json; charset=utf-8';
  }
  return { status: r.status, headers, payload };
}

function looksJson(s: string): boolean {
  const t = s.trimStart()[0];
  if (t !== '{' && t !== '[') return false;
  try { JSON.parse(s); return true; } catch { return false; }
}
