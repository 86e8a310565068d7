// Runs an ordered list of actions from a start index: conditions, then the action, then bookkeeping
// in a plain-JSON SeqState, so a suspended run continues exactly where it stopped (on any node).
// Used for an interface's actions and for each item of a lookup.
import type { ActionPlan } from '../plan.ts';
import type { RunState, SeqState, StepRecord } from '../run-state.ts';
import type { Scope } from '../scope.ts';
import type { Services } from '../services.ts';
import type { Suspend } from '../actions/types.ts';
import { checkConditions } from './conditions.ts';
import { allHold } from './input.ts';
import { runAction, type StepResult } from './action.ts';
import { RunStopped } from './shutdown.ts';
import { setOwn } from '../values/build.ts';
import { Records } from '../values/records.ts';

/** No unhandled failure (the usual case): one shared empty set, not one per action. */
const NONE: ReadonlySet<string> = new Set();

/** A sequence's bookkeeping; failures by action name in fast-mode records (values/records.ts). */
export const newSeq = (): SeqState => ({ order: [], unhandled: [], failures: new Records() });

/** The HTTP client waiting for the run went away before it suspended: nothing further starts. */
export class RunCancelled extends Error {
  readonly statusCode = 499;
  constructor() { super('run cancelled: the client disconnected'); }
}

export interface Paused {
  index: number;
  suspend: Suspend;
}

/** Runs actions[start..]; returns where it paused when an action asked to suspend the run. Not an
 *  async function: a skipped action settles at once, and one that runs continues the sequence from
 *  its promise (an async function's suspension and resumption per action showed in profiles); a
 *  throw anywhere is the returned promise's rejection. */
export function runSequence(actions: ActionPlan[], s: Scope, seq: SeqState, run: RunState, services: Services, start = 0, settled?: (next: number) => Promise<void>): Promise<Paused | undefined> {
  return new Sequence(actions, s, seq, run, services, settled).from(start);
}

/** One run of a sequence: its steps are methods, not closures made per run (every request's run,
 *  every lookup item's). */
class Sequence {
  constructor(
    private readonly actions: ActionPlan[], private readonly s: Scope, private readonly seq: SeqState, private readonly run: RunState,
    private readonly services: Services, private readonly settled: ((next: number) => Promise<void>) | undefined,
  ) {}

  from(i: number): Promise<Paused | undefined> {
    try {
      const r = this.step(i);
      return r instanceof Promise ? r : Promise.resolve(r);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /** The actions from `i`: where the sequence ended (or paused) when it got there without waiting,
   *  else its promise. The action that ran continues here (ran, next) with a plain value when the rest
   *  does not wait: a promise handed back from a `then` callback costs its adoption (two more
   *  microtasks and a promise) on every action of every request. A throw is the caller's rejection. */
  private step(i: number): Paused | undefined | Promise<Paused | undefined> {
    const { actions, s, seq, run, services } = this;
    for (; i < actions.length; i++) {
      if (services.cancel?.aborted) throw new RunCancelled();
      if (services.shutdown?.aborted) throw new RunStopped(run.id); // parked or stopped: see ./shutdown.ts
      const a = actions[i]!;
      const verdict = checkConditions(a, s.steps, seq.unhandled.length ? new Set(seq.unhandled) : NONE);
      let record: StepRecord;
      if (!verdict.run) {
        record = { outcome: verdict.failWith !== undefined ? 'failed' : 'skipped', attempts: 0, error: verdict.reason };
        if (verdict.failWith !== undefined) {
          seq.forced = { action: a.name, status: verdict.failWith };
          seq.unhandled.push(a.name);
        }
      } else if (a.onAssertion || (a.stateKeys && services.store)) {
        return this.awaited(a, i);
      } else if (skippedDependency(a, s)) {
        record = skippedByDependency();
      } else {
        const t0 = services.clock.now();
        return runAction(a, s, run, services).then((r) => this.ran(a, r, i, t0));
      }
      if (this.settled) return this.next(a, record, i);
      this.keep(a, record);
    }
    return undefined;
  }

  /** An action whose run_on_assertion or state read is awaited first. */
  private async awaited(a: ActionPlan, i: number): Promise<Paused | undefined> {
    const { s, run, services } = this;
    if (a.onAssertion && !(await onAssertionHolds(a, s))) return this.next(a, { outcome: 'skipped', attempts: 0, error: 'skipped: run_on_assertion not met' }, i);
    if (skippedDependency(a, s)) return this.next(a, skippedByDependency(), i);
    const t0 = services.clock.now();
    if (a.stateKeys && services.store) s.state = await services.store.stateGet(run.config, a.stateKeys, t0);
    return this.ran(a, await runAction(a, s, run, services), i, t0);
  }

  private ran(a: ActionPlan, r: StepResult, i: number, t0: number): Paused | undefined | Promise<Paused | undefined> {
    if (r.suspend) return { index: i, suspend: r.suspend };
    // How long it ran (its attempts and the waits between them in process), for the runs API.
    r.record.ms = this.services.clock.now() - t0;
    settle(a, r.record, r.failure, this.seq);
    return this.next(a, r.record, i);
  }

  /** The action's record kept, its progress persisted (a held run), then the actions after it. */
  private next(a: ActionPlan, record: StepRecord, i: number): Paused | undefined | Promise<Paused | undefined> {
    this.keep(a, record);
    return this.settled ? this.settled(i + 1).then(() => this.step(i + 1)) : this.step(i + 1);
  }

  private keep(a: ActionPlan, record: StepRecord): void {
    setOwn(this.s.steps, a.name, record);
    this.seq.order.push(a.name);
  }
}

/** Skipped because an action it depends on had nothing to do: it had nothing to do either, so the
 *  actions depending on it skip too (spec: "the action and everything depending on it are
 *  skipped": transitively, however the dependency is written). */
const skippedByDependency = (): StepRecord => ({ outcome: 'skipped', attempts: 0, skippedEmpty: true, error: 'skipped: an action it depends on had nothing to do' });

/** Bookkeeping after an action finished: failures to handle, failures it handled. */
export function settle(a: ActionPlan, record: StepRecord, failure: SeqState['failures'][string], seq: SeqState): void {
  if (record.outcome === 'failed') {
    seq.unhandled.push(a.name);
    setOwn(seq.failures, a.name, failure);
  }
  // Stryker disable next-line ConditionalExpression: without run_when_failed nothing is handled; the test only saves the copy
  if (a.failed?.actions.length) {
    const handled = new Set(a.failed.actions);
    seq.unhandled = seq.unhandled.filter((n) => !handled.has(n));
  }
}

/** only_new's skip_when_empty: an action that was skipped for having nothing to do skips the
 *  actions that name it in run_when_succeeded or depends_on, or read it through markers. */
function skippedDependency(a: ActionPlan, s: Scope): boolean {
  // Three lists read in turn, not joined: this runs for every action of every lookup item.
  return anySkippedEmpty(a.succeeded?.actions, s) || anySkippedEmpty(a.depends?.actions, s) || anySkippedEmpty(a.reads, s);
}

function anySkippedEmpty(names: readonly string[] | undefined, s: Scope): boolean {
  if (!names) return false;
  // Stryker disable next-line OptionalChaining: the names are earlier actions (checked at load), and every earlier action has a record
  for (const n of names) if (s.steps[n]?.skippedEmpty === true) return true;
  return false;
}

async function onAssertionHolds(a: ActionPlan, s: Scope): Promise<boolean> {
  try { return await allHold(a.onAssertion!.tests, undefined, s); } catch { return false; }
}
