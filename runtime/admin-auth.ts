// The management surface's credential: `Authorization: Bearer <SERVICE__ADMIN_TOKEN>`, compared as
// digests (equal length, constant time, whatever the caller sends). The inbound gate applies the
// network policy to these routes first (RULES: `own`).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

const digest = (s: string) => createHash('sha256').update(s).digest();

export interface AdminAuth {
  /** Whether the request carries the admin token. */
  holds(req: FastifyRequest): boolean;
  /** A preHandler answering 401 without it. */
  require(req: FastifyRequest, reply: FastifyReply): Promise<unknown>;
}

export function adminAuth(token: string): AdminAuth {
  const expected = digest(`Bearer ${token}`);
  const holds = (req: FastifyRequest) => timingSafeEqual(digest(req.headers.authorization ?? ''), expected);
  return {
    holds,
    async require(req, reply) {
      if (!holds(req)) return reply.header('www-authenticate', 'Bearer').code(401).send({ error: { status: 401, message: 'admin token required' } });
    },
  };
}

/** A JSON error answer, as every management route gives one. */
export const fail = (reply: FastifyReply, status: number, message: string) => reply.code(status).send({ error: { status, message } });
