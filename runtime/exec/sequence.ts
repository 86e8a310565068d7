// Runs an ordered list of actions against one scope: conditions, then the action, then bookkeeping.
// Used for an interface's actions and for each item of a lookup.
import type { ActionPlan } from '../plan.ts';
import type { RunState, StepRecord } from '../run-state.ts';
import type { Scope } from '../scope.ts';
import type { Services } from '../services.ts';
import type { ActionOutcome } from '../actions/types.ts';
import { checkConditions } from './conditions.ts';
import { runAction } from './action.ts';
import { setOwn } from '../values/build.ts';

export interface SequenceResult {
  /** Names in the order they finished (skipped ones too). */
  order: string[];
  /** Failed actions no run_when_failed branch took care of. */
  unhandled: Set<string>;
  failures: Record<string, ActionOutcome['failure']>;
  /** A depends_on that was not met and asked for this status. */
  forcedStatus?: { action: string; status: number };
}

export async function runSequence(actions: ActionPlan[], s: Scope, run: RunState, services: Services): Promise<SequenceResult> {
  const res: SequenceResult = { order: [], unhandled: new Set(), failures: Object.create(null) as SequenceResult['failures'] };
  for (const a of actions) {
    const verdict = checkConditions(a, s.steps, res.unhandled);
    let record: StepRecord;
    if (!verdict.run) {
      record = { outcome: verdict.failWith !== undefined ? 'failed' : 'skipped', attempts: 0, error: verdict.reason };
      if (verdict.failWith !== undefined) {
        res.forcedStatus = { action: a.name, status: verdict.failWith };
        res.unhandled.add(a.name);
      }
    } else if (a.onAssertion && !onAssertionHolds(a, s)) {
      record = { outcome: 'skipped', attempts: 0, error: 'skipped: run_on_assertion not met' };
    } else {
      if (a.stateKeys && services.readState) s.state = await (services.readState as (k: string[]) => Promise<Record<string, unknown>>)(a.stateKeys);
      const r = await runAction(a, s, run, services);
      record = r.record;
      if (record.outcome === 'failed') {
        res.unhandled.add(a.name);
        res.failures[a.name] = r.failure;
      }
      for (const name of a.failed?.actions ?? []) res.unhandled.delete(name);
    }
    setOwn(s.steps, a.name, record);
    res.order.push(a.name);
  }
  return res;
}

function onAssertionHolds(a: ActionPlan, s: Scope): boolean {
  return a.onAssertion!.tests.every((t) => {
    try { return t(undefined, s).ok; } catch { return false; }
  });
}
