// The runs API's management routes (SERVICE__ADMIN_TOKEN; without one they are not registered and
// answer 404 like any unknown path): the list, cancelling a waiting run, re-running a recorded one.
// GET /_ap/runs/<id> is in run-routes.ts (it predates these and also answers a run's own poller).
import type { FastifyInstance } from 'fastify';
import type { InterfacePlan, Plan } from '../plan.ts';
import type { RunState } from '../run-state.ts';
import type { Environment } from '../scope.ts';
import type { Services } from '../services.ts';
import type { Store } from '../store-types.ts';
import type { GatedRoute } from '../inbound.ts';
import { executeInterface, type RunResult } from '../exec/run.ts';
import { notReplayableBecause } from '../capture/capture.ts';
import { adminAuth, fail } from '../admin-auth.ts';
import { entryView } from './run-view.ts';
import { encodeCursor, INVALID_RUN_ID, QueryError, runsQuery, validRunId } from './runs-query.ts';

const ADMIN: GatedRoute = { pipewrightSurface: { kind: 'process', name: 'admin' } };

/** The status code a cancelled run answers with (as a run its client's disconnect cancelled). */
export const CANCELLED_STATUS = 499;

export interface RunsApiOptions {
  plans: Plan[];
  store: Store;
  env: Environment;
  services: Services;
  adminToken: string;
  /** After-run work (error handler, capture, metrics): the server's hooks. */
  afterRun(plan: Plan, iface: InterfacePlan, result: RunResult): void;
}

/** A run's state by id: its record, or (capture on) its capture. */
export async function recordedRun(store: Store, id: string): Promise<RunState | undefined> {
  return (await store.loadRun(id)) ?? (await store.getCapture(id))?.state;
}

/** Whether re-running `run` is possible here, and why not. */
export function rerunOf(plans: readonly Plan[], run: RunState): { plan: Plan; iface: InterfacePlan } | { reason: string } {
  const plan = plans.find((p) => p.name === run.config);
  const iface = plan?.interfaces.find((i) => i.name === run.iface);
  if (!plan || !iface) return { reason: `interface ${run.config}.${run.iface} is not loaded` };
  const because = notReplayableBecause(iface.actions, run);
  if (because !== undefined) return { reason: `action "${because}" is replayable: false` };
  return { plan, iface };
}

export function registerRunsApi(app: FastifyInstance, o: RunsApiOptions): void {
  const auth = adminAuth(o.adminToken).require;

  app.get('/_ap/runs', { config: ADMIN, preHandler: auth }, async (req, reply) => {
    let q;
    try { q = runsQuery(req.query as Record<string, unknown>); } catch (e) {
      if (e instanceof QueryError) return fail(reply, 400, e.message);
      throw e;
    }
    // One more than asked: a next page exists exactly when it comes back.
    const rows = await o.store.listRuns({ ...q, limit: q.limit + 1 });
    const page = rows.slice(0, q.limit);
    return { runs: page.map(entryView), next_cursor: rows.length > q.limit ? encodeCursor(page.at(-1)!) : null };
  });

  app.post('/_ap/runs/:id/cancel', { config: ADMIN, preHandler: auth }, async (req, reply) => {
    const { id } = req.params as { id: string };
    if (!validRunId(id)) return fail(reply, 400, INVALID_RUN_ID);
    const at = new Date(o.services.clock.now()).toISOString();
    const r = await o.store.cancelRun(id, (st) => cancelled(st, at));
    if (r.kind === 'unknown') return fail(reply, 404, 'unknown run: no run with this id is kept here');
    if (r.kind === 'not-waiting') return fail(reply, 409, `the run is ${r.status}: only a suspended run (waiting for a delay, a retry or a callback) can be cancelled`);
    // This node's cancel won (the store's claim): it alone tells the error handler.
    const plan = o.plans.find((p) => p.name === r.state.config);
    const iface = plan?.interfaces.find((i) => i.name === r.state.iface);
    if (plan && iface) o.afterRun(plan, iface, { state: r.state, response: r.state.response!, recorded: true });
    return { id, status: 'cancelled', outcome: { http_code: r.state.response!.status, body: r.state.response!.body } };
  });

  app.post('/_ap/runs/:id/rerun', { config: ADMIN, preHandler: auth }, async (req, reply) => {
    const { id } = req.params as { id: string };
    if (!validRunId(id)) return fail(reply, 400, INVALID_RUN_ID);
    const run = await recordedRun(o.store, id);
    if (!run) return fail(reply, 404, 'unknown run: no run with this id is kept here');
    const target = rerunOf(o.plans, run);
    if ('reason' in target) return fail(reply, 409, `this run cannot be re-run: ${target.reason}`);
    // The request as recorded (credential headers masked there stay masked), as a new run, in the
    // trace of this request (tracing on), not the recorded one's.
    const result = await executeInterface(target.plan, target.iface, run.request, { trigger: run.trigger, env: o.env, services: o.services, traceFrom: req.headers });
    o.afterRun(target.plan, target.iface, result);
    const res = result.response;
    return reply.header('x-run-id', result.state.id).send({
      run_id: result.state.id, rerun_of: id, status: result.state.status,
      response: { status: res.status, headers: res.headers, body: res.body },
    });
  });
}

/** The run as it ends when cancelled: its waiting action failed "cancelled", a 499 answer saying so. */
function cancelled(st: RunState, at: string): RunState {
  const action = st.wake?.action;
  const message = `the run was cancelled at ${at} while waiting${action ? ` in action "${action}"` : ''} (POST /_ap/runs/<id>/cancel)`;
  const out: RunState = {
    ...st, status: 'cancelled',
    response: { status: CANCELLED_STATUS, headers: {}, body: { error: { status: CANCELLED_STATUS, message, ...(action ? { action } : {}) } } },
  };
  if (action) {
    out.steps = { ...st.steps, [action]: { outcome: 'failed', attempts: st.retry?.action === action ? st.retry.attempts : 0, error: 'cancelled while waiting' } };
    out.seq = { ...st.seq, order: [...st.seq.order, action] };
  }
  delete out.wake;
  delete out.retry;
  return out;
}
