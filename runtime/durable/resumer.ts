// Resumes suspended runs when due: polls the store for due runs (a delay's end, a retry wait, a
// callback's timeout); the store hands each run to exactly one node. Memory stays flat: suspended
// runs live in the store, not here.
import type { InterfacePlan, Plan } from '../plan.ts';
import type { RunState } from '../run-state.ts';
import type { Environment } from '../scope.ts';
import type { Services } from '../services.ts';
import type { Store } from '../store-types.ts';
import { resumeRun, type Delivery, type RunResult } from '../exec/run.ts';
import { redactorOf, redactRun } from '../values/redact.ts';
import { LeaseLost, leasedCheckpoint, renewWhileHeld } from '../store/lease.ts';
import { failHeld } from './failed-run.ts';
import { logRunLine, logRunResumed } from '../log/run-lines.ts';
import { countTakeover, DEFAULT_MAX_TAKEOVERS } from './takeovers.ts';

export interface ResumerOptions {
  plans: Plan[];
  store: Store;
  env: Environment;
  services: Services;
  node: string;
  pollMs?: number;
  batch?: number;
  log?: (msg: string) => void;
  /** After-run work (error handler, capture, metrics): the server's hooks. */
  hooks?: { afterRun(plan: Plan, iface: InterfacePlan, result: RunResult): void };
  /** Takeovers at one action before the run fails (SERVICE__MAX_TAKEOVERS, default 5). */
  maxTakeovers?: number;
}

export function startResumer(o: ResumerOptions): { stop(): Promise<void>; resumed: number } {
  const state = { stopped: false, resumed: 0, running: Promise.resolve(), failures: 0, quietUntil: 0 };
  const tick = async () => {
    // While the store is away, polls back off (doubling to 5 s) and the outage is logged once, then
    // its end: no line every 250 ms, no run failed for it. Nothing is lost: due runs wait in the store.
    if (Date.now() < state.quietUntil) return;
    while (!state.stopped) {
      let failed = false;
      const due = await o.store.claimDue(new Date(o.services.clock.now()), o.batch ?? 50, o.node).catch((e: unknown) => {
        failed = true;
        if (state.failures++ === 0) o.log?.(`resumer: the store is unreachable, polling less often until it is back: ${(e as Error).message}`);
        state.quietUntil = Date.now() + Math.min(5000, (o.pollMs ?? 250) * 2 ** Math.min(state.failures, 5));
        return [] as RunState[];
      });
      if (failed) return;
      if (state.failures) { o.log?.(`resumer: the store is reachable again after ${state.failures} failed polls`); state.failures = 0; }
      await Promise.all(due.map((run) => continueRun(o, run, deliveryOf(run)).then(() => { state.resumed++; })));
      if (due.length < (o.batch ?? 50)) break;
    }
  };
  const timer = setInterval(() => { state.running = state.running.then(tick); }, o.pollMs ?? 250);
  return {
    get resumed() { return state.resumed; },
    async stop() { state.stopped = true; clearInterval(timer); await state.running; },
  };
}

/** What a run the resumer claimed is continued with: a run without a wake was running when its node
 *  died (its lease expired): taken over. One waiting for a callback either timed out or, when its
 *  token was claimed and the resuming node died before its next checkpoint, continues with the
 *  callback stored with the claim. */
function deliveryOf(run: RunState): Delivery {
  if (!run.wake) return { kind: 'takeover' };
  if (run.wake.reason !== 'callback') return { kind: 'wake' };
  return run.callback ? { kind: 'callback', body: run.callback.body } : { kind: 'timeout' };
}

/** Continues one claimed run and records how it ended (or it is suspended again by the executor). */
export async function continueRun(o: Pick<ResumerOptions, 'plans' | 'store' | 'env' | 'services' | 'log' | 'hooks' | 'node' | 'maxTakeovers'>, run: RunState, delivery: Delivery): Promise<RunState> {
  const plan = o.plans.find((p) => p.name === run.config);
  const iface = plan?.interfaces.find((x) => x.name === run.iface);
  /** Ends the run failed with a 500 saying why (when this node still holds it), then its after-run hooks. */
  const fail = async (why: string): Promise<RunState> => {
    o.log?.(`run ${run.id}: resume failed: ${why}`);
    // Where the run stands: the action it waits in, or the one it was running (the cursor's).
    const action = run.wake?.action ?? iface?.actions[run.cursor]?.name;
    const r = await failHeld(o, run, why, action).catch((e: unknown) => { o.log?.(`run ${run.id}: recording its failure: ${(e as Error).message}`); return undefined; });
    if (!r) return run;
    // A throwing hook must not stop the resumer's loop (this runs in its tick).
    try { ended(r); } catch (e) { o.log?.(`run ${run.id}: after-run hook: ${(e as Error).message}`); }
    return r.state;
  };
  /** The after-run hooks (the run's line among them), or the line alone where there are none to call. */
  const ended = (r: RunResult) => {
    if (plan && iface && o.hooks) o.hooks.afterRun(plan, iface, r);
    else logRunLine(o.services.log, r, o.services.clock.now());
  };
  // Every node serves the same configs; one that does not (a deploy under way) cannot run it.
  if (!plan) return fail(`config "${run.config}" is not served by the node that claimed it`);
  // The lease is renewed after each action (checkpoint) and, for a long action, by a timer.
  const stopRenewing = renewWhileHeld(o.store, run.id, o.node);
  const checkpoint = leasedCheckpoint(o.store, o.env, o.node);
  try {
    if (delivery.kind === 'takeover') {
      const limit = o.maxTakeovers ?? DEFAULT_MAX_TAKEOVERS;
      const count = countTakeover(run);
      if (count > limit) return await fail(`its node stopped ${count} times while running this action; at most ${limit} takeovers are allowed at one action (SERVICE__MAX_TAKEOVERS)`);
      // Counted in the store before anything runs: an action that kills its node each time still counts.
      await checkpoint(run);
    }
    logRunResumed(o.services.log, run, delivery.kind, o.services.clock.now(), { reqId: delivery.kind === 'callback' ? delivery.reqId : undefined, action: iface?.actions[run.cursor]?.name });
    const r = await resumeRun(plan, run, delivery, { env: o.env, services: o.services, checkpoint });
    // Suspended again (another wait, a retry wait): its line here, where the after-run hooks are not called.
    if (r.state.status === 'suspended') logRunLine(o.services.log, r, o.services.clock.now());
    else {
      await o.store.saveRun(redactRun({ ...r.state, response: r.response }, redactorOf(o.env)));
      r.recorded = true;
      ended(r);
    }
    return r.state;
  } catch (e) {
    // Another node holds the run now and continues it: this node must not record an outcome.
    if (e instanceof LeaseLost) { o.log?.(e.message); return run; }
    return await fail((e as Error).message);
  } finally {
    stopRenewing();
  }
}
