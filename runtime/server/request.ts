// Incoming HTTP request → RequestData: JSON, form or text bodies, the raw text kept for a|raw_body|.
import type { FastifyRequest } from 'fastify';
import type { RequestData } from '../run-state.ts';
import { stringMap } from '../values/string-map.ts';
import { MAX_JSON_DEPTH, tooDeep } from '../values/json-depth.ts';

/** A request the client must fix: 400 unless said otherwise (415 for a wrong content type). */
export class BadRequest extends Error {
  constructor(message: string, readonly status = 400) { super(message); }
}

export function requestData(req: FastifyRequest): RequestData {
  const rawBody = typeof req.body === 'string' ? req.body : '';
  return {
    method: req.method,
    path: req.url.split('?')[0]!,
    params: { ...stringMap(req.query), ...stringMap(req.params) },
    headers: stringMap(req.headers),
    body: decodeBody(rawBody, String(req.headers['content-type'] ?? '')),
    rawBody,
  };
}

/** JSON, form or text; malformed or too deeply nested JSON is a 400 (BadRequest), never a stack trace. */
export function decodeBody(raw: string, type: string): unknown {
  if (raw === '') return null;
  if (isJsonType(type)) {
    if (tooDeep(raw)) throw new BadRequest(`request body nests deeper than ${MAX_JSON_DEPTH} levels`);
    try { return JSON.parse(raw); } catch (e) { throw new BadRequest(`request body is not valid JSON: ${(e as Error).message}`); }
  }
  if (/^application\/x-www-form-urlencoded/i.test(type)) return Object.fromEntries(new URLSearchParams(raw));
  return raw;
}

export const isJsonType = (type: string) => /[/+]json\b/i.test(type);

