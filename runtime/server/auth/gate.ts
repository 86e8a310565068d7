// fastify onRequest hooks for inbound credentials: run before the body is read, so an unauthenticated
// request costs no parsing and runs nothing.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { credentialsRequired, type InboundSettings } from './settings.ts';
import { verifier } from './verify.ts';

export type Hook = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

function deny(reply: FastifyReply, message: string) {
  return reply.header('www-authenticate', 'Bearer').code(401).send({ error: { status: 401, message } });
}

function hook(check: ReturnType<typeof verifier>, what: string): Hook {
  return async (req, reply) => {
    const v = await check(req.headers);
    if (v === 'missing') return deny(reply, `${what} required (Authorization: Bearer <API key or JWT>, or X-API-Key)`);
    if (v === 'invalid') return deny(reply, `${what} not accepted`);
    return undefined;
  };
}

/** For interfaces: undefined when no credential is configured (they stay open). */
export function interfaceGate(s: InboundSettings): Hook | undefined {
  return credentialsRequired(s) ? hook(verifier(s), 'a credential is') : undefined;
}

/** For run status (`/_ap/runs/<id>`): an interface credential or the admin token; open when neither
 *  is required of interfaces (the run id, a v4 UUID, is then its credential). */
export function runsGate(s: InboundSettings): Hook | undefined {
  if (!credentialsRequired(s)) return undefined;
  return hook(verifier(s, s.adminToken ? [s.adminToken] : []), 'a credential is');
}
