// Runs one action to its outcome: input, kind, retry with waits, post_transforms, json_output, assert.
import type { ActionOutcome, Failure, Suspend } from '../actions/types.ts';
import { AttemptContext, type Execution } from './action-context.ts';
import { actionKinds } from '../actions/index.ts';
import type { ActionPlan, DataFn } from '../plan.ts';
import type { RunState, StepRecord } from '../run-state.ts';
import type { Scope } from '../scope.ts';
import { maxDelayOf, type Services } from '../services.ts';
import { runAssert } from './assert.ts';
import { resolveInput } from './input.ts';
import { isRetryable, nextWait } from './retry.ts';
import { runLookup } from './lookup.ts';
import { setOwn } from '../values/build.ts';
import { TransformError } from '../transforms/types.ts';
import { timerMs } from '../values/bounds.ts';
import { logActionFailed, logPhase } from '../log/action-logs.ts';
import { Refused } from '../refused.ts';
import { withActionBound } from '../jq/bounds.ts';
import type { AttemptSpan, TraceHeaders } from '../tracing.ts';

export interface StepResult {
  record: StepRecord;
  /** What made the action fail, for the response's status. */
  failure?: ActionOutcome['failure'];
  retryAfterMs?: number;
  /** The run must be parked here (delay, wait_for_callback, a long retry wait). */
  suspend?: Suspend;
}

export function runAction(a: ActionPlan, s: Scope, run: RunState, services: Services): Promise<StepResult> {
  // A retry resumed after a suspension continues its attempt budget and keeps its execution id.
  // Stryker disable next-line ConditionalExpression: whenever run.retry is set it names the action at hand (set at the checkpoint before it, cleared below)
  const resumed = run.retry?.action === a.name ? run.retry : undefined;
  run.retry = undefined;
  if (a.retry || resumed) return withRetries(a, s, run, services, resumed);
  // One attempt, as the loop below makes it, without an async function around it (a suspension and
  // a resumption on every action of every request), ended as the attempt settles (no promise and
  // turn more to end it).
  logPhase(a, 'pre', s, run, services);
  return attemptOnce(a, s, run, services, 1, {}, true);
}

/** Attempts while the retry settings allow, waiting (or parking the run) between them. */
async function withRetries(a: ActionPlan, s: Scope, run: RunState, services: Services, resumed: RunState['retry']): Promise<StepResult> {
  const retry = a.retry;
  const attempts = retry?.attempts ?? 1;
  // Made when first read (an idempotency key, a retry parked between attempts), then kept.
  const execution: Execution = resumed ? { id: resumed.executionId } : {};
  let waited = 0;
  let last: StepResult | undefined;
  if (!resumed?.attempts) logPhase(a, 'pre', s, run, services);
  for (let attempt = (resumed?.attempts ?? 0) + 1; attempt <= attempts; attempt++) {
    last = await attemptOnce(a, s, run, services, attempt, execution, false);
    if (last.suspend) return last;
    const assertFailed = last.record.assert?.ok === false;
    if (last.record.outcome === 'succeeded' && !assertFailed) return ended(a, s, run, services, last);
    if (!retry || attempt === attempts) break;
    // A model call (agent) follows the HTTP retry rules (spec: agent model errors retry like HTTP).
    if (!isRetryable(retry, last, a.kind === 'http' || a.kind === 'agent', assertFailed)) break;
    const wait = nextWait(retry, attempt + 1, last);
    const stop = retryStop(run, services, wait);
    if (stop) { last.record.error = `${last.record.error ?? 'failed'}; ${stop}`; break; }
    waited += wait;
    services.tracer?.retryWait(run, a.name, attempt, wait);
    // The next attempt and retry_log read the failed attempt's record (a|<action>::status|), whether
    // or not anything is logged: a log line never changes how a run goes (docs/decisions.md).
    setOwn(s.steps, a.name, last.record);
    logPhase(a, 'retry', s, run, services, { attempt, next_attempt: attempt + 1, wait_ms: wait });
    // Waits past SERVICE__MAX_DELAY_SECS park the run between attempts when the store is durable;
    // without one they happen in process (spec: Retry rules 7).
    if (waited > maxDelayOf(services) && services.store?.durable) {
      run.retry = { action: a.name, attempts: attempt, executionId: (execution.id ??= s.env.uuid()) };
      return { ...last, suspend: { at: services.clock.now() + wait, reason: 'retry' } };
    }
    try { await services.clock.sleep(wait, services.cancel?.signal); } catch { break; }
  }
  return ended(a, s, run, services, last!);
}

/** The last attempt's result with the action's logs written (ended), unless it suspends the run. */
const endOf = (a: ActionPlan, s: Scope, run: RunState, services: Services, r: StepResult): StepResult => (r.suspend ? r : ended(a, s, run, services, r));

/** The action's logs once it has its final record: error_log, or success_log then post_log (the
 *  spec's "after success": a failed or skipped action writes no post_log). Never called for a
 *  suspension: runAction returns those first. */
function ended(a: ActionPlan, s: Scope, run: RunState, services: Services, r: StepResult): StepResult {
  // Stryker disable next-line ConditionalExpression: equivalent, without a log nothing is written, and the record set below is the one the sequence sets as the action ends
  if (!services.log) return r;
  // The messages read the action's own record, as its assert does.
  setOwn(s.steps, a.name, r.record);
  if (r.record.outcome === 'failed') {
    logActionFailed(a, run, services, r.record.attempts, r.record.error);
    logPhase(a, 'error', s, run, services);
  } else if (r.record.outcome === 'succeeded') {
    logPhase(a, 'success', s, run, services);
    logPhase(a, 'post', s, run, services);
  }
  return r;
}

/** Why no further attempt may start: the client went away, or the run's deadline comes first. */
function retryStop(run: RunState, services: Services, wait: number): string | undefined {
  if (services.cancel?.aborted) return 'retries stopped: the client disconnected';
  const deadline = run.deadline ? Date.parse(run.deadline) : NaN;
  if (services.clock.now() + wait > deadline) return `retries stopped: the run's deadline (${run.deadline}) comes before the next attempt`;
  return undefined;
}

/** One attempt. Not async: the kind's promise is mapped once (an async function here cost a
 *  suspension and a resumption on every action); a throw or a rejection, before or during the
 *  kind's work, is a failed outcome. `last`: the action's last attempt, ended (endOf) once settled. */
function attemptOnce(a: ActionPlan, s: Scope, run: RunState, services: Services, attempt: number, execution: Execution, last: boolean): Promise<StepResult> {
  if (services.tracer) {
    const span = services.tracer.startAttempt(run, a.name, a.kind, attempt);
    if (span) return attemptTraced(a, s, run, services, attempt, execution, span, last);
  }
  return attemptWith(a, s, run, services, attempt, execution, undefined, last);
}

/** An attempt under its span (tracing on): the span ends with the attempt's outcome, before the
 *  action's logs. */
function attemptTraced(a: ActionPlan, s: Scope, run: RunState, services: Services, attempt: number, execution: Execution, span: AttemptSpan, last: boolean): Promise<StepResult> {
  return attemptWith(a, s, run, services, attempt, execution, span.headers, false).then((r) => {
    span.end(r.suspend ? 'suspended' : r.record.outcome, r.record.error, r.record.status);
    return last ? endOf(a, s, run, services, r) : r;
  });
}

/** A failure of the input (its markers, jq, its tests) comes before the kind: a refusal there is the
 *  settings'. Marked by one module-level handler, the mark made only when the input fails: a
 *  handler per attempt (a closure over the action) would cost every attempt with an input. */
class InputFailure { constructor(readonly reason: unknown) {} }
const inputFailed = (e: unknown): never => { throw new InputFailure(e); };

/** One attempt, with the trace context its outbound calls carry (tracing on). */
function attemptWith(a: ActionPlan, s: Scope, run: RunState, services: Services, attempt: number, execution: Execution, trace: TraceHeaders | undefined, last: boolean): Promise<StepResult> {
  const timeout = a.timeoutMs !== undefined ? AbortSignal.timeout(timerMs(a.timeoutMs)) : undefined;
  const cancel = services.cancel;
  // One signal only where there is something to abort on: a timeout and/or the run's cancellation.
  // Without a timeout the run's own signal is made only if the action reads ctx.signal; the http
  // action listens through ctx.cancel instead.
  const signal = timeout && cancel ? AbortSignal.any([timeout, cancel.signal]) : timeout;
  const failed = (e: unknown) => settleAttempt(a, s, run, services, attempt, caught(a, run, services, e), last);
  let work: Promise<ActionOutcome>;
  try {
    // Stryker disable next-line ConditionalExpression: equivalent, resolveInput gives undefined to an action with neither input nor conditional_input (the test only saves a tick)
    work = a.input || a.conditionalInput
      ? resolveInput(a, s).then((input) => start(a, s, run, services, attempt, execution, signal, input, trace), inputFailed)
      : start(a, s, run, services, attempt, execution, signal, undefined, trace);
  } catch (e) {
    return Promise.reject(e).catch(failed); // what `failed` throws (the action's logs) rejects too
  }
  return work.then((outcome) => settleAttempt(a, s, run, services, attempt, outcome, last), failed);
}

/** The kind's work for one attempt. */
function start(a: ActionPlan, s: Scope, run: RunState, services: Services, attempt: number, execution: Execution, signal: AbortSignal | undefined, input: unknown, trace: TraceHeaders | undefined): Promise<ActionOutcome> {
  const cancel = services.cancel;
  // `pipewright test`: a case's stand-in answers instead of the kind, or records it (runtime/testing/stand-ins.ts).
  const standIns = services.standIns;
  const lookup = a.kind === 'lookup';
  if (lookup && !standIns) return runLookup(a, s, run, services, signal ?? cancel);
  let config: unknown;
  // Settings filled in from the request and earlier results: a refusal here (a value where it may
  // not go) comes before the kind and any stand-in (a test case replaying the run refuses by itself).
  if (!lookup && a.config) {
    try { config = a.config(s); } catch (e) { return Promise.resolve(caught(a, run, services, e, true)); }
  }
  const ctx = new AttemptContext(signal, signal ? undefined : cancel, run, s, services, attempt, input, execution, trace);
  if (!standIns) return actionKinds[a.kind]!(config, ctx);
  // A lookup a case stands in whole (`--from-run` writes them so) answers without running its items.
  const work = lookup ? () => runLookup(a, s, run, services, signal ?? cancel) : () => actionKinds[a.kind]!(config, ctx);
  return standIns.attempt(a, config, ctx, work) ?? work();
}

/** What a throw or rejection of the attempt's work is: a failed outcome (refused: the client's to
 *  fix; `settings`: thrown while its settings or input were filled in, before its kind ran). */
function caught(a: ActionPlan, run: RunState, services: Services, thrown: unknown, settings = false): ActionOutcome {
  const input = thrown instanceof InputFailure;
  const e = input ? thrown.reason : thrown;
  settings ||= input;
  reportTransformFailure(run, a, e, services);
  const failure: Failure = e instanceof Refused ? { kind: 'refused', status: e.status, ...(settings ? { settings: true as const } : {}) } : { kind: 'other' };
  return { ok: false, error: e instanceof Error ? e.message : String(e), failure };
}

/** The attempt's record from its outcome; post_transforms, json_output and the assert when the
 *  action has them (then asynchronously). `last`: ended too (endOf). */
function settleAttempt(a: ActionPlan, s: Scope, run: RunState, services: Services, attempt: number, outcome: ActionOutcome, last: boolean): StepResult | Promise<StepResult> {
  if (outcome.suspend) return { record: { outcome: 'succeeded', attempts: attempt }, suspend: outcome.suspend };
  if (outcome.skip) {
    const r: StepResult = { record: { outcome: 'skipped', attempts: attempt, skippedEmpty: true, data: outcome.data, error: 'skipped: nothing new' } };
    return last ? endOf(a, s, run, services, r) : r;
  }
  const record: StepRecord = { outcome: outcome.ok ? 'succeeded' : 'failed', attempts: attempt };
  // Stryker disable next-line ConditionalExpression: equivalent, a status key set to undefined reads as none (`::status`, JSON, the checkpoint); the test keeps records small
  if (outcome.status !== undefined) record.status = outcome.status;
  // Stryker disable next-line ConditionalExpression: equivalent, as the status above
  if (outcome.headers) record.headers = outcome.headers;
  const data: unknown = outcome.data ?? null;
  if (a.kind === 'http') record.body = data;
  // Stryker disable next-line StringLiteral: unreachable, every action kind's failure carries its error
  if (!outcome.ok) record.error = withAssertHint(a, outcome, outcome.error ?? 'failed');
  else if (a.post || a.jsonOutput || a.assert) return afterwards(a, s, run, services, record, data, outcome, last);
  record.data = data;
  const r: StepResult = { record, failure: outcome.failure, retryAfterMs: outcome.retryAfterMs };
  return last ? endOf(a, s, run, services, r) : r;
}

async function afterwards(a: ActionPlan, s: Scope, run: RunState, services: Services, record: StepRecord, data: unknown, outcome: ActionOutcome, last: boolean): Promise<StepResult> {
  let failure = outcome.failure;
  try {
    // The action's timeout lowers the jq time bound of its transforms (runtime/jq/bounds.ts).
    const post = a.post;
    if (post) data = await withActionBound(a.timeoutMs, () => post(data, s));
    if (a.jsonOutput) data = await jsonOutput(a.jsonOutput, data, s);
  } catch (e) {
    reportTransformFailure(run, a, e, services);
    record.outcome = 'failed';
    record.error = e instanceof Error ? e.message : String(e);
    // A bound the data exceeded (jq's time or size) is the request's: its status, not a 500.
    failure = e instanceof Refused ? { kind: 'refused', status: e.status } : { kind: 'other' };
  }
  record.data = data;
  // The assert sees the action's own record, so `a|<this action>::status|` works inside it.
  if (a.assert && record.outcome === 'succeeded') {
    setOwn(s.steps, a.name, record);
    record.assert = await runAssert(a.assert, data, s);
  }
  const r: StepResult = { record, failure, retryAfterMs: outcome.retryAfterMs };
  return last ? endOf(a, s, run, services, r) : r;
}

/** A failed transform is the config author's to fix, and the response may hide why (no
 *  show_error_detail): one line on the server's error output. Transform messages name the
 *  transform and never show values. (A logging helper is to route this through pino.) */
function reportTransformFailure(run: RunState, a: ActionPlan, e: unknown, services: Services): void {
  // With the operational log the failed-action line carries the reason already (logActionFailed);
  // without one (tests, `pipewright run`) the reason still reaches the error output once.
  if (e instanceof TransformError && !services.log) console.error(`pipewright: ${run.config}.${run.iface} run ${run.id}: action "${a.name}" failed: ${e.message}`);
}

/** An assert that expects a status expect_status refuses: the action fails first, and says so. */
function withAssertHint(a: ActionPlan, o: ActionOutcome, error: string): string {
  const h = a.assertStatusHint;
  // Stryker disable next-line OptionalChaining: unreachable, every failed outcome carries its failure
  if (!h || o.failure?.kind !== 'status' || !h.statuses.includes(o.failure.status)) return error;
  const list = h.statuses.join(', ');
  return `${error}; the assert expects status ${o.failure.status}, which expect_status does not accept: add "expect_status: [${list}]" (with any other accepted statuses, e.g. "2xx") to the http settings of action "${a.name}" (line ${h.line})`;
}

/** json_output: each key's function of the data (a jq leaf that may run a regex is awaited). */
async function jsonOutput(fields: Array<[string, DataFn]>, data: unknown, s: Scope): Promise<Record<string, unknown>> {
  const out: Array<[string, unknown]> = [];
  for (const [k, f] of fields) out.push([k, await f(data, s)]);
  return Object.fromEntries(out);
}
