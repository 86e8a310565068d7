// GET /metrics in the Prometheus text format, when a served config sets `expose_metrics: true`.
import type { FastifyInstance } from 'fastify';
import type { Plan } from '../plan.ts';
import type { Services } from '../services.ts';
import { Metrics } from './metrics.ts';
import type { GatedRoute } from '../inbound.ts';

// Gated by the inbound gate like an interface (request-derived labels are data), unless
// SERVICE__PUBLIC_METRICS=1 opens it to any client the network policy admits.
const config: GatedRoute = { pipewrightSurface: { kind: 'process', name: 'metrics' } };

export function registerMetrics(app: FastifyInstance, plans: readonly Plan[], services: Services, maxSeries?: number): void {
  if (!plans.some((p) => p.exposeMetrics)) return;
  const metrics = services.metrics instanceof Metrics ? services.metrics : new Metrics(maxSeries);
  services.metrics = metrics;
  app.get('/metrics', { config }, async (_req, reply) => reply.type(metrics.contentType).send(await metrics.text()));
}
