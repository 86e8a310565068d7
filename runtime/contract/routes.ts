// Serves each config's OpenAPI document: GET /_ap/openapi/<config>.json, and /_ap/openapi.json for
// the only config (or an index of them when several are served). A document is built on its first
// request, not at start (50 interfaces' operations were a visible part of a bundle's start).
import type { FastifyInstance } from 'fastify';
import type { Plan } from '../plan.ts';
import { openApiDocument } from './openapi.ts';
import type { GatedRoute } from '../inbound.ts';

// Gated by the inbound gate like an interface, unless SERVICE__PUBLIC_OPENAPI=1.
const config: GatedRoute = { pipewrightSurface: { kind: 'process', name: 'openapi' } };

export function registerOpenApiRoutes(app: FastifyInstance, plans: readonly Plan[]): void {
  const byName = new Map(plans.map((p) => [p.name, p]));
  const docs = new Map<string, string>();
  const doc = (p: Plan) => docs.get(p.name) ?? docs.set(p.name, JSON.stringify(openApiDocument(p.name, p.interfaces))).get(p.name)!;
  for (const [name, p] of byName) {
    app.get(`/_ap/openapi/${encodeURIComponent(name)}.json`, { config }, (_req, reply) => reply.type('application/json').send(doc(p)));
  }
  app.get('/_ap/openapi.json', { config }, (_req, reply) => {
    if (byName.size === 1) return reply.type('application/json').send(doc([...byName.values()][0]!));
    return reply.send({ configs: [...byName.keys()].map((n) => ({ name: n, url: `/_ap/openapi/${encodeURIComponent(n)}.json` })) });
  });
}
