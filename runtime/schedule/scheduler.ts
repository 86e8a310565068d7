// Cron triggers. Every node arms the same timers; each tick is claimed in the store and only the
// winner runs it, so with several nodes on one Postgres a tick runs exactly once.
//
// Retries of a failed tick and the "last tick run" mark are kept in the store's key/value state
// (namespace `_ap/schedule`, which no config name can take: names come from file names):
//  - retry:<config>.<iface> = {tick, attempt, due}: the newest pending retry. A node that starts
//    resumes it when its tick is still the latest one (the retry attempt is claimed like a tick,
//    so it never runs twice);
//  - last:<config>.<iface> = the newest tick time claimed. On start, if the latest tick before now
//    is newer than it, that single tick runs once (claimed, so once across nodes): never a backlog,
//    and never on a first deploy (no mark yet). Both need a durable store to survive a restart.
//
// A tick's run on a durable store is held under a lease and checkpointed after each action. When its
// node dies, another node's resumer takes the run over from its last checkpoint (the crash is not a
// failed attempt); whichever node finishes a tick's run hands it back here (`finished`), so a failure
// is retried by the schedule's rules wherever it happened. A pending retry whose node died during
// the wait is picked up by the other nodes' sweep once it is a lease overdue. On a durable store the
// run is stored, held, in the claim's own transaction: a node dying between claiming a tick (or a
// retry attempt) and starting its run leaves a run the resumers take over, never a lost tick.
import type { Cron } from 'croner';
import type { InterfacePlan, Plan } from '../plan.ts';
import type { RequestData, RunState } from '../run-state.ts';
import type { Environment } from '../scope.ts';
import type { Services } from '../services.ts';
import type { Store } from '../store-types.ts';
import { executeInterface, newRunState, type RunResult } from '../exec/run.ts';
import { LeaseLost, leasedCheckpoint, renewWhileHeld } from '../store/lease.ts';
import { redactorOf, redactRun } from '../values/redact.ts';
import { SCHEDULE_NS } from '../values/namespace.ts';
import { backoffMs, cronOf, scheduleSettings, type ScheduleSettings } from './settings.ts';
import { isStoreUnavailable } from '../store/unavailable.ts';

/** How long a tick is retried while the store is unreachable before it counts as missed. */
const CLAIM_PATIENCE_MS = 10 * 60_000;

export interface ScheduleOptions {
  store: Store;
  env: Environment;
  services: Services;
  /** This node's name, recorded with each claim. */
  node: string;
  now?: () => number;
  log?: (msg: string) => void;
  /** Accept 6-field (seconds) cron patterns: tests only; configs are validated as 5 fields. */
  seconds?: boolean;
  /** Called after every scheduled run (on_error handlers, capture). */
  afterRun?: (plan: Plan, iface: InterfacePlan, result: RunResult) => void | Promise<void>;
}

export interface Schedules {
  stop(): Promise<void>;
  /** Ticks this node claimed and ran (catch-up included, retries not). */
  readonly ticks: number;
  /** A tick's run finished elsewhere than in this scheduler (taken over, or resumed after a
   *  suspension): a failed one is retried by its schedule's rules. Runs of no tick are ignored. */
  finished(result: RunResult): void;
}

interface Job { key: string; plan: Plan; iface: InterfacePlan; s: ScheduleSettings; cron: Cron }
interface PendingRetry { tick: number; attempt: number; due: number }

export { SCHEDULE_NS };

/** What a tick's run receives: no request (pipewright test runs a case's ticks with it too). */
export const scheduledRequest = (iface: InterfacePlan): RequestData => ({ method: 'SCHEDULE', path: iface.route, params: {}, headers: {}, body: null, rawBody: '' });
/** Longest single timer: long waits are re-checked against the clock (setTimeout overflows at ~24.8 days). */
const MAX_TIMER_MS = 60_000;

export function startSchedules(plans: Plan[], o: ScheduleOptions): Schedules {
  const now = o.now ?? (() => o.services.clock.now());
  const log = o.log ?? ((m: string) => process.stderr.write(`pipewright: ${m}\n`));
  // Validate every schedule before arming any, so a bad one stops the start.
  const jobs: Job[] = [];
  for (const plan of plans) {
    for (const iface of plan.interfaces) {
      const s = scheduleSettings(iface.schedule);
      if (!s?.enabled) continue;
      const key = `${plan.name}.${iface.name}`;
      jobs.push({ key, plan, iface, s, cron: cronOf(key, s, o.seconds) });
    }
  }

  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<Promise<unknown>>();
  let stopped = false;
  let ticks = 0;

  const later = (ms: number, fn: () => void) => {
    if (stopped) return;
    const t = setTimeout(() => { timers.delete(t); if (!stopped) fn(); }, Math.min(Math.max(ms, 0), MAX_TIMER_MS));
    timers.add(t);
  };
  // A wait that stop() cuts short (a pending claim must not hold the stop).
  const sleepers = new Set<() => void>();
  const nap = (ms: number) => new Promise<void>((r) => {
    const wake = () => { clearTimeout(t); sleepers.delete(wake); r(); };
    const t = setTimeout(wake, ms);
    sleepers.add(wake);
  });
  const track = (p: Promise<unknown>) => {
    const q = p.catch((e: unknown) => log(`schedule: ${(e as Error).message}`)).finally(() => inFlight.delete(q));
    inFlight.add(q);
  };

  const arm = (job: Job, after: Date) => {
    const next = job.cron.nextRun(after);
    if (!next) return log(`schedule of ${job.key}: cron "${job.s.cron}" has no future tick`);
    later(next.getTime() - now(), () => {
      if (now() < next.getTime()) return arm(job, after); // a chunk of a long wait
      // After a stall only the newest due tick runs: never a backlog.
      const following = job.cron.nextRun(next);
      if (!following || following.getTime() > now()) track(tick(job, next));
      arm(job, next);
    });
  };

  const tick = async (job: Job, at: Date, missed = false) => {
    const runId = o.env.uuid();
    if (!(await claimWhenReachable(job.key, at, heldRun(job, at.getTime(), 1, runId)))) return;
    ticks++;
    if (missed) log(`schedule of ${job.key}: running missed tick ${at.toISOString()}`);
    await o.store.stateAdvance(SCHEDULE_NS, `last:${job.key}`, at.getTime(), undefined, now());
    await attempt(job, at.getTime(), 1, runId);
  };

  /** A tick claimed while the store is away is claimed when it is back (each node tries; the claim
   *  still goes to one), so an outage delays ticks instead of losing them. Bounded: a tick not
   *  claimable for CLAIM_PATIENCE_MS is logged as missed. */
  const claimWhenReachable = async (key: string, at: Date, held: RunState | undefined): Promise<boolean> => {
    const until = now() + CLAIM_PATIENCE_MS;
    for (let wait = 250; ; wait = Math.min(wait * 2, 5000)) {
      try { return await o.store.claimTick(key, at, o.node, held); } catch (e) {
        if (!isStoreUnavailable(e) || stopped) throw e;
        if (now() + wait > until) { log(`schedule of ${key}: tick ${at.toISOString()} missed: the store was unreachable for ${CLAIM_PATIENCE_MS / 60_000} minutes`); return false; }
        await nap(wait);
        if (stopped) return false;
      }
    }
  };

  const attempt = async (job: Job, tickAt: number, n: number, runId: string) => {
    const result = await run(job, tickAt, n, runId);
    if (result !== 'taken-over') await afterAttempt(job, tickAt, n, result);
  };

  const request = (job: Job): RequestData => scheduledRequest(job.iface);

  /** The run a durable store records with the claim (see claimTick). */
  const heldRun = (job: Job, tickAt: number, n: number, runId: string): RunState | undefined => {
    if (!o.store.durable) return undefined;
    return { ...newRunState(job.plan, job.iface, request(job), { trigger: 'schedule', env: o.env, services: o.services, runId, tick: { schedule: job.key, at: tickAt, attempt: n } }), unstarted: true };
  };

  /** A held run whose node crashed running it: failed, with the crash as its 500 response (redacted as every stored run). */
  const crashedRun = (job: Job, tickAt: number, n: number, runId: string, e: unknown): RunState => {
    const st = newRunState(job.plan, job.iface, request(job), { trigger: 'schedule', env: o.env, services: o.services, runId, tick: { schedule: job.key, at: tickAt, attempt: n } });
    const response = { status: 500, headers: {}, body: { error: { status: 500, message: `the run crashed: ${(e as Error).message}` } } };
    return redactRun({ ...st, status: 'failed', response }, redactorOf(o.env));
  };

  /** An attempt ended (here or on the node that took it over): a failed or crashed one is retried. */
  const afterAttempt = async (job: Job, tickAt: number, n: number, result: RunResult | undefined) => {
    if (result && result.state.status !== 'failed') return;
    if (n >= job.s.maxAttempts) {
      if (job.s.maxAttempts > 1) log(`schedule of ${job.key}: tick ${new Date(tickAt).toISOString()} failed after ${n} attempts`);
      return;
    }
    const wait = backoffMs(job.s, n);
    const p: PendingRetry = { tick: tickAt, attempt: n + 1, due: now() + wait };
    await o.store.stateSet(SCHEDULE_NS, `retry:${job.key}`, p, wait + 86_400_000, now());
    waitThenRetry(job, p);
  };

  const waitThenRetry = (job: Job, p: PendingRetry) => {
    later(p.due - now(), () => (now() < p.due ? waitThenRetry(job, p) : track(retry(job, p))));
  };

  const retry = async (job: Job, p: PendingRetry) => {
    // Claimed per attempt: a node resuming it after a restart and the original node never both run it.
    const runId = o.env.uuid();
    if (!(await claimWhenReachable(`${job.key}#${p.attempt}`, new Date(p.tick), heldRun(job, p.tick, p.attempt, runId)))) return;
    await attempt(job, p.tick, p.attempt, runId);
  };

  const run = async (job: Job, tickAt: number, n: number, runId: string): Promise<RunResult | 'taken-over' | undefined> => {
    // On a durable store the tick's run is checkpointed under a lease, renewed while an action runs:
    // if this node dies, another node's resumer continues it from its last completed action.
    const checkpoint = o.store.durable ? leasedCheckpoint(o.store, o.env, o.node) : undefined;
    const stopRenewing = renewWhileHeld(o.store, runId, o.node);
    let result: RunResult;
    try {
      result = await executeInterface(job.plan, job.iface, request(job), {
        trigger: 'schedule', env: o.env, services: o.services, runId, tick: { schedule: job.key, at: tickAt, attempt: n }, ...(checkpoint ? { checkpoint } : {}),
      });
    } catch (e) {
      // Another node continues the run from its checkpoint: not a failed attempt.
      if (e instanceof LeaseLost) { log(e.message); return 'taken-over'; }
      log(`schedule of ${job.key}: run crashed: ${(e as Error).message}`);
      // The claim stored the run held (heldRun): recorded failed here, or another node's resumer would
      // take it over after the lease, crash again, and claim it again after every lease.
      if (o.store.durable) await o.store.saveRun(crashedRun(job, tickAt, n, runId, e)).catch((x: unknown) => log(`schedule of ${job.key}: run ${runId}: ${(x as Error).message}`));
      return undefined; // counts as a failed attempt
    } finally {
      stopRenewing();
    }
    // A failing hook (capture, on_error) is logged; it must not make the run count as failed.
    await Promise.resolve().then(() => o.afterRun?.(job.plan, job.iface, result)).catch((e: unknown) => log(`schedule of ${job.key}: after-run hook: ${(e as Error).message}`));
    return result;
  };

  // On start: resume the latest tick's pending retry, or run the latest tick if it was missed.
  const catchUp = async (job: Job) => {
    const t = now();
    const prev = job.cron.previousRuns(1, new Date(t))[0];
    if (!prev) return;
    const st = await o.store.stateGet(SCHEDULE_NS, [`last:${job.key}`, `retry:${job.key}`], t);
    const last = st[`last:${job.key}`];
    const pending = st[`retry:${job.key}`] as PendingRetry | undefined;
    if (pending && pending.tick === prev.getTime()) return waitThenRetry(job, pending);
    if (typeof last === 'number' && last < prev.getTime()) await tick(job, prev, true);
  };

  // Pending retries left by a node that died during the wait: run once a lease overdue (claimed per
  // attempt, so never twice). Each is tried once per node: the last one tried per schedule is kept.
  const lease = o.store.durable ? o.store.leaseMs : undefined;
  const swept = new Map<string, string>();
  const retrying = jobs.filter((j) => j.s.maxAttempts > 1);
  const sweep = async () => {
    const t = now();
    // One store call for every schedule's pending retry (stateGet reads many keys at once).
    const pending = await o.store.stateGet(SCHEDULE_NS, retrying.map((j) => `retry:${j.key}`), t);
    for (const job of retrying) {
      const p = pending[`retry:${job.key}`] as PendingRetry | undefined;
      const id = p && `${job.key}#${p.attempt}@${p.tick}`;
      if (!p || !id || swept.get(job.key) === id || p.due + lease! > t) continue;
      swept.set(job.key, id);
      track(retry(job, p));
    }
  };
  const sweepEvery = (ms: number) => later(ms, () => track(sweep().finally(() => sweepEvery(ms))));
  if (lease && retrying.length) sweepEvery(lease);

  for (const job of jobs) {
    arm(job, new Date(now()));
    track(catchUp(job));
  }

  return {
    get ticks() { return ticks; },
    finished(result) {
      const t = result.state.tick;
      const job = t && jobs.find((j) => j.key === t.schedule);
      if (t && job && result.state.status !== 'suspended') track(afterAttempt(job, t.at, t.attempt, result));
    },
    async stop() {
      stopped = true;
      for (const wake of [...sleepers]) wake();
      for (const t of timers) clearTimeout(t);
      timers.clear();
      while (inFlight.size) await Promise.all([...inFlight]);
    },
  };
}
