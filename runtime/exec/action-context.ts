// The context an action kind gets for one attempt. A class rather than an object literal: the
// literal with a `signal` getter (made fresh per attempt when only the run's cancellation can abort
// it) showed as the hottest line of attemptOnce in the lookup fan-out profile, once per item; and
// one class gives kinds one shape whichever way the attempt can be aborted.
import type { ActionContext } from '../actions/types.ts';
import type { RunCancel } from '../run-cancel.ts';
import type { RunState } from '../run-state.ts';
import type { Scope } from '../scope.ts';
import type { Services } from '../services.ts';
import type { TraceHeaders } from '../tracing.ts';

/** One execution of an action (its attempts, across suspensions): its id once something read it. */
export interface Execution { id?: string }

export class AttemptContext implements ActionContext {
  constructor(
    /** The attempt's own signal (its timeout, with the run's cancellation when there is one). */
    private readonly own: AbortSignal | undefined,
    /** The run's cancellation when it is all that can abort the attempt (no `own` signal). */
    public cancel: RunCancel | undefined,
    public run: RunState,
    public scope: Scope,
    public services: Services,
    public attempt: number,
    public input: unknown,
    private readonly execution: Execution,
    /** The attempt's span context (tracing on): outbound HTTP calls carry it. */
    public trace: TraceHeaders | undefined = undefined,
  ) {}

  /** The action execution's id, made on first read (most actions never read it) and then the same
   *  for every attempt of the execution. */
  get executionId(): string {
    return (this.execution.id ??= this.scope.env.uuid());
  }

  /** The attempt's signal; with only the run's cancellation, its signal made on first read. */
  get signal(): AbortSignal | undefined {
    return this.own ?? this.cancel?.signal;
  }
}
