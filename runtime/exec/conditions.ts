// Whether an action runs: its run_when_* / depends_on conditions, or by default "no failure so far
// that nothing handled". Semantics are recorded in docs/decisions.md.
import type { CondIR } from '../config-ir.ts';
import type { StepRecord } from '../run-state.ts';

export type Verdict = { run: true } | { run: false; failWith?: number; reason: string };

/** The usual verdict, shared: callers only read it (one object per action per lookup item otherwise). */
const RUN: Verdict = Object.freeze({ run: true });

export function checkConditions(
  a: { succeeded?: CondIR; failed?: CondIR; depends?: CondIR },
  steps: Record<string, StepRecord>,
  unhandled: ReadonlySet<string>,
): Verdict {
  if (!a.succeeded && !a.failed && !a.depends) {
    return unhandled.size === 0 ? RUN : { run: false, reason: `skipped: ${[...unhandled].join(', ')} failed` };
  }
  if (a.succeeded && !holds(a.succeeded, steps, 'succeeded')) return { run: false, reason: `skipped: run_when_succeeded not met` };
  if (a.failed && !holds(a.failed, steps, 'failed')) return { run: false, reason: `skipped: run_when_failed not met` };
  // depends_on waits for completion, not success: a failed action completes, a skipped one never does.
  if (a.depends && !holds(a.depends, steps, 'completed')) {
    // Stryker disable next-line OptionalChaining: equivalent, a condition names only earlier actions (checked at load), which all have a record
    const missing = a.depends.actions.filter((n) => !completed(steps[n]?.outcome));
    const v: Verdict = { run: false, reason: `depends_on not met: ${missing.join(', ')} did not complete` };
    // Stryker disable next-line ConditionalExpression: equivalent, a failWith of undefined reads as none
    if (a.depends.httpCodeOnError !== undefined) v.failWith = a.depends.httpCodeOnError;
    return v;
  }
  return RUN;
}

/** At least `atLeast` (default: all) of the named actions have the outcome ('completed': either one). */
function holds(c: CondIR, steps: Record<string, StepRecord>, outcome: 'succeeded' | 'failed' | 'completed'): boolean {
  const has = (o: StepRecord['outcome'] | undefined) => (outcome === 'completed' ? completed(o) : o === outcome);
  // Stryker disable next-line OptionalChaining: equivalent, a condition names only earlier actions (checked at load), which all have a record
  const n = c.actions.filter((name) => has(steps[name]?.outcome)).length;
  return n >= (c.atLeast ?? c.actions.length);
}

const completed = (o: StepRecord['outcome'] | undefined) => o === 'succeeded' || o === 'failed';
