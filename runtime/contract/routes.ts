// Serves each config's OpenAPI document: GET /_ap/openapi/<config>.json, and /_ap/openapi.json for
// the only config (or an index of them when several are served).
import type { FastifyInstance } from 'fastify';
import type { Plan } from '../plan.ts';
import { openApiDocument } from './openapi.ts';

export function registerOpenApiRoutes(app: FastifyInstance, plans: readonly Plan[]): void {
  const docs = new Map(plans.map((p) => [p.name, JSON.stringify(openApiDocument(p.name, p.interfaces))]));
  for (const [name, doc] of docs) {
    app.get(`/_ap/openapi/${encodeURIComponent(name)}.json`, (_req, reply) => reply.type('application/json').send(doc));
  }
  app.get('/_ap/openapi.json', (_req, reply) => {
    if (docs.size === 1) return reply.type('application/json').send([...docs.values()][0]);
    return reply.send({ configs: [...docs.keys()].map((n) => ({ name: n, url: `/_ap/openapi/${encodeURIComponent(n)}.json` })) });
  });
}
