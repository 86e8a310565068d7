// Serves the OpenAPI documents: GET /_ap/openapi/<config>.json (one config), GET /_ap/openapi.json
// (everything this server exposes: the only config's document, or one merged document of all) and
// GET /_ap/openapi (an index of them). A document is built on its first request, not at start
// (50 interfaces' operations were a visible part of a bundle's start).
import type { FastifyInstance } from 'fastify';
import type { Plan } from '../plan.ts';
import { mergedOpenApiDocument, openApiDocument, type ApiCredentials } from './openapi.ts';
import type { GatedRoute } from '../inbound.ts';

// Gated by the inbound gate like an interface, unless SERVICE__PUBLIC_OPENAPI=1.
const config: GatedRoute = { pipewrightSurface: { kind: 'process', name: 'openapi' } };

export const OPENAPI_INDEX = '/_ap/openapi';
export const OPENAPI_MERGED = '/_ap/openapi.json';
export const openApiUrl = (name: string) => `/_ap/openapi/${encodeURIComponent(name)}.json`;

export function registerOpenApiRoutes(app: FastifyInstance, plans: readonly Plan[], credentials: ApiCredentials = {}): void {
  const cache = new Map<string, string>();
  const once = (key: string, build: () => unknown) => cache.get(key) ?? cache.set(key, JSON.stringify(build())).get(key)!;
  const one = (p: Plan) => once(`config:${p.name}`, () => openApiDocument(p.name, p.interfaces, { credentials, network: p.settings?.network }));
  for (const p of plans) app.get(openApiUrl(p.name), { config }, (_req, reply) => reply.type('application/json').send(one(p)));
  app.get(OPENAPI_MERGED, { config }, (_req, reply) => reply.type('application/json').send(plans.length === 1 ? one(plans[0]!) : once('merged', () =>
    mergedOpenApiDocument(plans.map((p) => ({ name: p.name, interfaces: p.interfaces, network: p.settings?.network })), { credentials }))));
  app.get(OPENAPI_INDEX, { config }, (_req, reply) => reply.send({
    merged: OPENAPI_MERGED,
    configs: plans.map((p) => ({ name: p.name, url: openApiUrl(p.name) })),
  }));
}
