// Incoming HTTP request → RequestData: JSON, form or text bodies, the raw text kept for a|raw_body|.
import type { FastifyRequest } from 'fastify';
import type { RequestData } from '../run-state.ts';
import type { Violation } from '../contract/body-check.ts';
import { headerMap, stringMap } from '../values/string-map.ts';
import { parseJsonBounded, TooDeepError } from '../values/json-depth.ts';

/** A request the client must fix: 400 unless said otherwise (415 for a wrong content type). */
export class BadRequest extends Error {
  constructor(message: string, readonly status = 400, readonly violations?: Violation[]) { super(message); }
}

export function requestData(req: FastifyRequest): RequestData {
  const rawBody = typeof req.body === 'string' ? req.body : '';
  return {
    method: req.method,
    path: pathOf(req.url),
    // Route params win over query params of the same name. (No spreads: see values/build.ts.)
    params: stringMap(req.params, stringMap(req.query)),
    headers: headerMap(req.headers),
    body: decodeBody(rawBody, String(req.headers['content-type'] ?? '')),
    rawBody,
  };
}

/** The URL without its query string. */
export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

/** JSON, form or text; malformed or too deeply nested JSON is a 400 (BadRequest), never a stack trace. */
export function decodeBody(raw: string, type: string): unknown {
  if (raw === '') return null;
  if (isJsonType(type)) {
    try { return parseJsonBounded(raw); } catch (e) {
      throw new BadRequest(e instanceof TooDeepError ? `request body ${e.message}` : `request body is not valid JSON: ${(e as Error).message}`);
    }
  }
  if (/^application\/x-www-form-urlencoded/i.test(type)) return Object.fromEntries(new URLSearchParams(raw));
  return raw;
}

export const isJsonType = (type: string) => /[/+]json\b/i.test(type);

