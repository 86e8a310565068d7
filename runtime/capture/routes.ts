// Management routes for captured runs. They need `Authorization: Bearer <SERVICE__ADMIN_TOKEN>`;
// without a configured token they are not registered at all, so they answer 404 like any unknown
// path (the management surface is off by default and does not reveal itself).
import type { FastifyInstance } from 'fastify';
import type { InterfacePlan, Plan } from '../plan.ts';
import type { CapturedRun, Store } from '../store-types.ts';
import type { RunResult } from '../exec/run.ts';
import { replay, ReplayError, type ReplayOptions } from './capture.ts';
import type { GatedRoute } from '../inbound.ts';
import { adminAuth, fail } from '../admin-auth.ts';

// The inbound gate applies the network policy; the admin token is checked here (`auth`).
const config: GatedRoute = { pipewrightSurface: { kind: 'process', name: 'captures' } };

export interface CaptureRouteOptions {
  store: Store;
  plans: Plan[];
  runOpts: ReplayOptions;
  adminToken?: string;
  /** Called after a replayed run (capture it, on_error...). */
  afterRun?: (plan: Plan, iface: InterfacePlan, result: RunResult) => void | Promise<void>;
}

const MAX_LIMIT = 1000;

/** The list shows what a capture is; the state (possibly large) is read one capture at a time. */
const summary = ({ state: _s, ...c }: CapturedRun) => c;

export function registerCaptureRoutes(app: FastifyInstance, o: CaptureRouteOptions): void {
  if (!o.adminToken) return;
  const auth = adminAuth(o.adminToken).require;

  app.get('/_ap/captures', { config, preHandler: auth }, async (req, reply) => {
    const q = req.query as Record<string, string | undefined>;
    let limit: number | undefined;
    if (q.limit !== undefined) {
      limit = Number(q.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) return fail(reply, 400, `limit must be an integer from 1 to ${MAX_LIMIT}`);
    }
    const list = await o.store.listCaptures({ config: q.config || undefined, iface: q.interface || undefined, limit });
    return { captures: list.map(summary) };
  });

  app.get('/_ap/captures/:id', { config, preHandler: auth }, async (req, reply) => {
    const c = await o.store.getCapture((req.params as { id: string }).id);
    return c ?? fail(reply, 404, 'no such capture');
  });

  app.post('/_ap/captures/:id/replay', { config, preHandler: auth }, async (req, reply) => {
    const c = await o.store.getCapture((req.params as { id: string }).id);
    if (!c) return fail(reply, 404, 'no such capture');
    const plan = o.plans.find((p) => p.name === c.config);
    try {
      if (!plan) throw new ReplayError(`config ${c.config} is not loaded`, 404);
      // In the trace of this request (tracing on), not the captured one's.
      const result = await replay(plan, c, { ...o.runOpts, traceFrom: req.headers });
      await o.afterRun?.(plan, plan.interfaces.find((i) => i.name === c.iface)!, result);
      const r = result.response;
      return reply.header('x-run-id', result.state.id).send({
        run_id: result.state.id,
        replay_of: c.id,
        status: result.state.status,
        response: { status: r.status, headers: r.headers, body: r.body },
      });
    } catch (e) {
      if (e instanceof ReplayError) return fail(reply, e.status, e.message);
      throw e;
    }
  });
}
