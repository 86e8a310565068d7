// Execution history: after a run, record it per the interface's `capture` setting, redacted, and
// marked inspect-only when an action that ran is `replayable: false`.
//
// Windows are per process and per loaded interface plan: a window opens when the plan is loaded
// (`open`) or at its first run, and closes after `for_minutes` or after `for_runs` captured runs
// (runs the mode records; in `errors` mode successes do not count), whichever comes first. A
// reloaded plan is a new object, so it gets a new window; a restart opens a new one too.
import type { ActionPlan, InterfacePlan, Plan } from '../plan.ts';
import type { RunState, Trigger } from '../run-state.ts';
import type { CapturedRun, Store } from '../store-types.ts';
import { executeInterface, type RunOptions, type RunResult } from '../exec/run.ts';
import { redactRun } from '../values/redact.ts';
import { captureSetting, type CaptureSetting } from './setting.ts';

export interface Capture {
  /** Opens the capture windows of these plans now (call at load; otherwise the first run opens one). */
  open(plans: Plan[]): void;
  /** Records the run if the setting asks for it. Suspended runs are recorded when they finish.
   *  `secretsSeen` may be a function: it is called only when the run is recorded. Undefined when
   *  the run is not recorded (most runs: no promise for them). */
  afterRun(plan: Plan, iface: InterfacePlan, result: RunResult, secretsSeen: string[] | (() => string[])): Promise<void> | undefined;
}

interface Window { s: CaptureSetting; openedAt: number; captured: number }

export function createCapture(o: { store: Store; now: () => number }): Capture {
  const windows = new WeakMap<InterfacePlan, Window>();
  const windowOf = (i: InterfacePlan): Window => {
    let w = windows.get(i);
    if (!w) windows.set(i, (w = { s: captureSetting(i.capture), openedAt: o.now(), captured: 0 }));
    return w;
  };
  return {
    open(plans) {
      for (const p of plans) for (const i of p.interfaces) windowOf(i);
    },
    afterRun(plan, iface, result, secretsSeen) {
      const w = windowOf(iface);
      const status = result.state.status;
      if (status !== 'succeeded' && status !== 'failed') return;
      if (w.s.mode === 'off' || (w.s.mode === 'errors' && status !== 'failed')) return;
      if (w.s.forMinutes !== undefined && o.now() - w.openedAt >= w.s.forMinutes * 60_000) return;
      if (w.s.forRuns !== undefined && w.captured >= w.s.forRuns) return;
      w.captured++; // counted before the store's write, so concurrent runs cannot overshoot for_runs
      try { return o.store.saveCapture(captured(plan, iface, result, secretsSeen, o.now())); } catch (e) { return Promise.reject(e); }
    },
  };
}

function captured(plan: Plan, iface: InterfacePlan, result: RunResult, secretsSeen: string[] | (() => string[]), now: number): CapturedRun {
  const because = notReplayableBecause(iface.actions, result.state);
  return {
    id: result.state.id,
    config: plan.name,
    iface: iface.name,
    at: new Date(now).toISOString(),
    status: result.state.status as CapturedRun['status'],
    replayable: because === undefined,
    ...(because !== undefined ? { notReplayableBecause: because } : {}),
    // The response rides along in the state, so a capture shows what the caller got.
    state: redactRun({ ...result.state, response: result.state.response ?? result.response }, typeof secretsSeen === 'function' ? secretsSeen() : secretsSeen),
  };
}

/** The first action that ran (in finishing order) and is `replayable: false`, itself or nested in it. */
export function notReplayableBecause(actions: ActionPlan[], state: RunState): string | undefined {
  const byName = new Map(actions.map((a) => [a.name, a]));
  const find = (a: ActionPlan): string | undefined => (a.notReplayable ? a.name : a.actions?.map(find).find((n) => n !== undefined));
  for (const name of state.seq?.order ?? []) {
    const a = byName.get(name);
    if (a && state.steps[name]?.outcome !== 'skipped') {
      const hit = find(a);
      if (hit !== undefined) return hit;
    }
  }
  return undefined;
}

export class ReplayError extends Error {
  constructor(message: string, readonly status: 404 | 409) { super(message); }
}

export type ReplayOptions = Omit<RunOptions, 'trigger' | 'runId'> & { trigger?: Trigger };

/** Re-runs the captured request (as stored, so redacted headers stay redacted) under a new run id. */
export async function replay(plan: Plan, captured: CapturedRun, runOpts: ReplayOptions): Promise<RunResult> {
  if (!captured.replayable) {
    const why = captured.notReplayableBecause ? `: action "${captured.notReplayableBecause}" is replayable: false` : '';
    throw new ReplayError(`capture ${captured.id} is inspect-only${why}`, 409);
  }
  const iface = plan.name === captured.config ? plan.interfaces.find((i) => i.name === captured.iface) : undefined;
  if (!iface) throw new ReplayError(`interface ${captured.config}.${captured.iface} is not loaded`, 404);
  // Never the captured run id, even if the caller passes one: a replay is a new run.
  const { trigger, runId: _old, ...rest } = runOpts as ReplayOptions & { runId?: string };
  return executeInterface(plan, iface, captured.state.request, { ...rest, trigger: trigger ?? captured.state.trigger });
}
