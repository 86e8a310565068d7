// An interface that declares `accepts` takes a JSON body: an empty body is a 400 and another content
// type a 415, before anything runs (interfaces without `accepts` keep reading JSON, form or text).
// A body of another JSON type than the one `accepts` declares (its schema's `type`, else its example's)
// is a 400 too: an array or a string where an object is expected would otherwise fail inside the run (500).
// Then the whole of `accepts.schema` (the plan's validator, made once: contract/body-check.ts): a 400
// naming the violation, before any action runs.
import type { FastifyRequest } from 'fastify';
import type { InterfacePlan } from '../plan.ts';
import { BadRequest, isJsonType } from './request.ts';

export function checkAccepts(i: InterfacePlan, req: FastifyRequest): void {
  if (!i.accepts) return;
  const raw = typeof req.body === 'string' ? req.body : '';
  const type = String(req.headers['content-type'] ?? '');
  if (raw.trim() === '') throw new BadRequest(`interface "${i.name}" takes a JSON body (see its accepts); the request has none`);
  if (!isJsonType(type)) throw new BadRequest(`interface "${i.name}" takes application/json; the request sent ${type === '' ? 'no content type' : type.split(';')[0]}`, 415);
}

/** The JSON type a body must have: `accepts.schema.type` when it names one, else the example's type. */
function expectedType(i: InterfacePlan): string | undefined {
  const a = i.accepts;
  if (!a) return undefined;
  const t = (a.schema as { type?: unknown } | undefined)?.type;
  if (typeof t === 'string') return t;
  return a.example === undefined ? undefined : jsonType(a.example);
}

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

const article = (t: string) => (/^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`);

/** After the body is decoded: the top-level JSON type `accepts` declares (in words a client reads
 *  more easily than a schema violation). */
export function checkBodyType(i: InterfacePlan, body: unknown): void {
  const want = expectedType(i);
  if (want === undefined) return;
  const got = jsonType(body);
  if (got === want || (want === 'number' && got === 'integer')) return;
  throw new BadRequest(`interface "${i.name}" takes ${article(`JSON ${want}`)} body (see its accepts); the request sent ${article(got === 'integer' ? 'number' : got)}`);
}

/** After the type: the body against `accepts.schema`. */
export function checkBodySchema(i: InterfacePlan, body: unknown): void {
  const violations = i.bodySchema?.(body);
  if (!violations) return;
  const first = violations[0];
  const where = first ? ` at ${first.path === '' ? 'the body' : first.path}: ${first.message}` : '';
  throw new BadRequest(`the request body does not match the accepts.schema of interface "${i.name}"${where}`, 400, violations);
}
