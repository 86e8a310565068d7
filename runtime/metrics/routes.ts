// GET /metrics in the Prometheus text format, when a served config sets `expose_metrics: true`.
import type { FastifyInstance } from 'fastify';
import type { Plan } from '../plan.ts';
import type { Services } from '../services.ts';
import { Metrics } from './metrics.ts';

export function registerMetrics(app: FastifyInstance, plans: readonly Plan[], services: Services, maxSeries?: number): void {
  if (!plans.some((p) => p.exposeMetrics)) return;
  const metrics = services.metrics instanceof Metrics ? services.metrics : new Metrics(maxSeries);
  services.metrics = metrics;
  app.get('/metrics', async (_req, reply) => reply.type(metrics.contentType).send(await metrics.text()));
}
