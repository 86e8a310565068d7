// An interface that declares `accepts` takes a JSON body: an empty body is a 400 and another content
// type a 415, before anything runs (interfaces without `accepts` keep reading JSON, form or text).
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
