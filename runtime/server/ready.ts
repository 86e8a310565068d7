// GET /_ap/ready, the readiness probe (load balancers, Kubernetes `readinessProbe`): 200 while this
// process should get traffic; 503 naming what is not ready, in fixed words only (no host, error or
// setting: the route is open, like /_ap/health): `store` (the store does not answer), `broker` (the
// MQTT connection is down), `draining` (shutting down). /_ap/health stays the liveness probe: 200
// whenever the process answers at all, so a database outage makes pods unready, not restarted.
import type { FastifyInstance } from 'fastify';
import type { GatedRoute } from '../inbound.ts';
import type { Store } from '../store-types.ts';

export type NotReady = 'store' | 'broker' | 'draining';

/** A probe that outlasts this is answered as not ready: a hung store must not hang the probe. */
export const READY_TIMEOUT_MS = 2000;

export interface Readiness {
  store?: Store | undefined;
  /** The MQTT connection is up (absent: no MQTT). */
  broker?: () => boolean;
  draining?: () => boolean;
}

/** What is not ready now, in order; empty when ready. */
export async function notReady(r: Readiness): Promise<NotReady[]> {
  const out: NotReady[] = [];
  if (r.store?.ping && !(await answers(r.store.ping()))) out.push('store');
  if (r.broker && !r.broker()) out.push('broker');
  if (r.draining?.()) out.push('draining');
  return out;
}

function answers(p: Promise<void>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((done) => { timer = setTimeout(() => done(false), READY_TIMEOUT_MS); });
  return Promise.race([p.then(() => true, () => false), late]).finally(() => clearTimeout(timer));
}

export function registerReady(app: FastifyInstance, r: Readiness): void {
  app.get('/_ap/ready', { config: { pipewrightSurface: { kind: 'process', name: 'ready' } } satisfies GatedRoute }, async (_req, reply) => {
    const not = await notReady(r);
    return not.length ? reply.code(503).header('cache-control', 'no-store').send({ ready: false, not }) : reply.header('cache-control', 'no-store').send({ ready: true });
  });
}
