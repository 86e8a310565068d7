// The executor: one function runs an interface's plan for a request, whichever way the plan's
// leaves were made; another continues a suspended run from its stored state, on any node.
import type { InterfacePlan, Plan } from '../plan.ts';
import type { RequestData, RunState, Trigger } from '../run-state.ts';
import type { Environment, Scope } from '../scope.ts';
import { DEFAULT_RUN_DEADLINE_MS, maxDelayOf, type RunInterface, type Services } from '../services.ts';
import { runAssert } from './assert.ts';
import { resolveParams } from './params.ts';
import { errorBody, errorStatus, responseHeaders, successBody, type HttpResponse, type RunFailure } from './response.ts';
import { newSeq, runSequence, settle, type Paused } from './sequence.ts';
import { untilShutdown } from './shutdown.ts';
import { copyRecord, setOwn, withOwn } from '../values/build.ts';
import { redactorOf, redactRun } from '../values/redact.ts';
import { Records } from '../values/records.ts';

export interface RunOptions {
  trigger: Trigger;
  env: Environment;
  services: Services;
  runId?: string;
  /** A run held under a lease (resumed, taken over): persists progress after each action. */
  checkpoint?: (state: RunState) => Promise<void>;
  /** A scheduled tick's attempt, carried in the run state (RunState.tick). */
  tick?: RunState['tick'];
  /** The inbound trace context when it is not the request's own headers: a re-run's or a replay's
   *  is the management request's, not the recorded request's. */
  traceFrom?: Readonly<Record<string, unknown>>;
}

export interface RunResult {
  state: RunState;
  response: HttpResponse;
  failure?: RunFailure;
  /** JSON.stringify(response.body), when the HTTP reply made it already: the run record reuses it. */
  bodyJson?: string;
  /** The store holds the run's final record already (the resumer writes a resumed run's whole):
   *  the after-run hooks must not write a shorter one over it. */
  recorded?: true;
  /** Its HTTP request's line stands for the run's line (runtime/log/run-lines.ts): not written twice. */
  requestLine?: true;
}

/** Date#toISOString with the text up to the second made once per second (two per request showed
 *  in profiles); one per use, since a run's start and its deadline fall in different seconds. */
class IsoText {
  private second = NaN;
  // Stryker disable next-line StringLiteral: replaced before its first use (second starts as NaN)
  private prefix = '';
  of(ms: number): string {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: the fallback writes the same text (`true`; `ms <= 0` at 0)
    if (!Number.isInteger(ms) || ms < 0) return new Date(ms).toISOString();
    const within = ms % 1000;
    // Stryker disable next-line ConditionalExpression,ArithmeticOperator: remaking the prefix every time (`true`, `ms + within` in the test) gives the same text
    if (ms - within !== this.second) { this.second = ms - within; this.prefix = new Date(this.second).toISOString().slice(0, -4); }
    return `${this.prefix}${within < 10 ? '00' : within < 100 ? '0' : ''}${within}Z`;
  }
}
const startIso = new IsoText(), deadlineIso = new IsoText();

export function newRunState(plan: Plan, i: InterfacePlan, request: RequestData, o: RunOptions): RunState {
  const now = o.services.clock.now(); // one clock read: the deadline counts from the start as written
  const state: RunState = {
    id: o.runId ?? o.env.uuid(),
    config: plan.name,
    iface: i.name,
    trigger: o.trigger,
    startedAt: startIso.of(now),
    deadline: deadlineIso.of(now + (o.services.runDeadlineMs ?? DEFAULT_RUN_DEADLINE_MS)),
    request,
    // Nothing inherited: action names are data, even one called __proto__ or constructor (values/records.ts).
    steps: new Records(),
    seq: newSeq(),
    cursor: 0,
    status: 'running',
  };
  // Set after, not spread into the literal (a spread there costs every run; only ticks have one).
  if (o.tick) state.tick = o.tick;
  return state;
}

/** The scope leaves read, derived from the run state alone. */
export function scopeOf(state: RunState, env: Environment): Scope {
  const r = state.request;
  // The params are extended by declared params: a copy that stays fast to extend (values/build.ts).
  return { body: r.body, rawBody: r.rawBody, params: copyRecord(r.params), headers: r.headers, steps: state.steps, state: {}, env };
}

/** Not async: handing back the run's own promise saves a promise and two turns on every request
 *  (a throw while setting up still arrives as a rejection). */
export function executeInterface(plan: Plan, i: InterfacePlan, request: RequestData, o: RunOptions): Promise<RunResult> {
  try {
    const state = newRunState(plan, i, request, o);
    const tracer = o.services.tracer;
    if (!tracer) return begin(i, state, o);
    // The inbound W3C trace context: an HTTP request's headers, an MQTT v5 message's user
    // properties, a WebSocket upgrade's or an MCP request's headers.
    tracer.startRun(state, o.traceFrom ?? request.headers);
    return traced(tracer, state, begin(i, state, o));
  } catch (e) { return Promise.reject(e); }
}

/** Ends the run's span with the segment's outcome (tracing on). */
function traced(tracer: NonNullable<Services['tracer']>, state: RunState, run: Promise<RunResult>): Promise<RunResult> {
  return run.then((r) => { tracer.endRun(r.state, r.response.status, r.failure?.message); return r; }, (e: unknown) => {
    tracer.endRun(state, undefined, e instanceof Error ? e.message : String(e));
    throw e;
  });
}

/** What a run reads once its state exists (the trigger and id are in the state by then). */
type Continuing = Omit<RunOptions, 'trigger' | 'runId'>;

/** A new run: params, then the actions from the first. No awaits where nothing is asynchronous:
 *  each costs a promise and a turn on every request. */
function begin(i: InterfacePlan, state: RunState, o: Continuing): Promise<RunResult> {
  const s = scopeOf(state, o.env);
  // Refused before its first action (and its side effects), not when it reaches the wait.
  if (i.waits && !o.services.store?.durable) {
    const why = cannotWait(i.waits, maxDelayOf(o.services));
    if (why) return Promise.resolve(finish(i, state, s, { kind: 'unavailable', message: why }));
  }
  // Stryker disable next-line ConditionalExpression: resolving no params succeeds and copies the request's params as they are
  if (i.params.length) return withParams(i, state, s, o);
  return proceed(i, state, s, o, 0);
}

async function withParams(i: InterfacePlan, state: RunState, s: Scope, o: Continuing): Promise<RunResult> {
  const params = await resolveParams(i.params, s);
  if (!params.ok) return finish(i, state, s, { kind: 'params', message: params.message });
  // Resolved params are part of the request from here on, so a resumed run sees them too.
  // (Without declared params they are the request's as they came: nothing to copy.)
  state.request = withOwn(state.request, 'params', copyRecord(s.params));
  return proceed(i, state, s, o, 0);
}

/** Why a run that will take these waits cannot start without a durable store, or undefined. */
export function cannotWait(w: NonNullable<InterfacePlan['waits']>, maxDelayMs: number): string | undefined {
  if (w.callback) return 'this interface waits for a callback, which needs a durable store (SERVICE__DATABASE_URL): refused before any action ran';
  if (w.delayMs !== undefined && w.delayMs > maxDelayMs) return `this interface has a delay of ${w.delayMs / 1000} s, longer than SERVICE__MAX_DELAY_SECS (${maxDelayMs / 1000} s), which needs a durable store (SERVICE__DATABASE_URL): refused before any action ran`;
  return undefined;
}

/** `config.interface` of each interface that will be refused without a durable store (serve names them at start). */
export function refusedWithoutStore(plans: readonly Plan[], maxDelayMs: number): string[] {
  return plans.flatMap((p) => p.interfaces.filter((i) => i.waits && cannotWait(i.waits, maxDelayMs)).map((i) => `${p.name}.${i.name}`));
}

/** How a suspended run is woken: its time came, a callback arrived, or a callback wait timed out. */
export type Delivery = { kind: 'wake' } | { kind: 'timeout' }
  | { kind: 'callback'; body: unknown; /** the resume request's, for the log */ reqId?: string; /** the resume request's headers (its trace context) */ headers?: Readonly<Record<string, unknown>> }
  /** Its node died mid-run: continue from the last checkpoint, re-running the action in flight. */
  | { kind: 'takeover' };

export function resumeRun(plan: Plan, state: RunState, delivery: Delivery, o: Continuing): Promise<RunResult> {
  const tracer = o.services.tracer;
  if (!tracer) return resumed(plan, state, delivery, o);
  // The same trace: a child of the run's last span, from its stored context (whichever node wrote it).
  // A callback's own context (the resume request's traceparent) is linked; it is the parent only
  // when the run has no stored context (it started while tracing was off).
  const inbound = delivery.kind === 'callback' ? delivery.headers : undefined;
  tracer.startRun(state, state.trace ?? inbound, delivery.kind, state.trace ? inbound : undefined);
  return traced(tracer, state, resumed(plan, state, delivery, o));
}

async function resumed(plan: Plan, state: RunState, delivery: Delivery, o: Continuing): Promise<RunResult> {
  // The claimed callback (kept only for a takeover before this point) is delivered now: a later wait
  // of the same run must not find it.
  delete state.callback;
  if (delivery.kind === 'takeover') {
    const i = plan.interfaces.find((x) => x.name === state.iface);
    if (!i) throw new Error(`run ${state.id}: interface ${state.iface} is not in config ${plan.name}`);
    state.status = 'running';
    // A tick's run stored with its claim by a node that died before starting it: started here.
    if (state.unstarted) { delete state.unstarted; return begin(i, state, o); }
    state.cursor = placeOf(i, state);
    return proceed(i, state, scopeOf(state, o.env), o, state.cursor);
  }
  const i = plan.interfaces.find((x) => x.name === state.iface);
  if (!i) throw new Error(`run ${state.id}: interface ${state.iface} is not in config ${plan.name}`);
  const s = scopeOf(state, o.env);
  state.cursor = placeOf(i, state);
  const a = i.actions[state.cursor];
  if (!a) throw new Error(`run ${state.id}: no action at ${state.cursor}`);
  const wake = state.wake;
  state.status = 'running';
  state.wake = undefined;
  let start = state.cursor;
  // A retry wait, or a shutdown that cut the action short: the action runs (again) on resume.
  if (wake?.reason !== 'retry' && wake?.reason !== 'shutdown') {
    // The waiting action completes now: a delay with null, a callback with the posted body.
    const rec = delivery.kind === 'timeout'
      ? { outcome: 'failed' as const, attempts: 1, data: null, error: `no callback arrived before the wait's timeout` }
      : { outcome: 'succeeded' as const, attempts: 1, data: delivery.kind === 'callback' ? delivery.body ?? null : null };
    setOwn(state.steps, a.name, rec);
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a failure of kind other answers 500 as one of no kind does; a callback's record is no failure
    settle(a, rec, delivery.kind === 'timeout' ? { kind: 'other' } : undefined, state.seq);
    state.seq.order.push(a.name);
    start++;
  }
  return proceed(i, state, s, o, start);
}

/** Where a run continues in the interface as served now: the action it waits in (or was running)
 *  found by name, so a reload or deploy that added, removed or moved other actions resumes it at the
 *  same action (actions added before it are not run; their data is absent). An action no longer
 *  there (removed or renamed) cannot be continued: the run fails saying so (durable/resumer.ts). */
function placeOf(i: InterfacePlan, state: RunState): number {
  const name = state.wake?.action ?? state.retry?.action;
  if (name === undefined || i.actions[state.cursor]?.name === name) return state.cursor;
  const at = i.actions.findIndex((a) => a.name === name);
  if (at < 0) throw new Error(`run ${state.id}: action "${name}" it ${state.wake ? 'waits in' : 'was running'} is no longer in interface ${i.name} (removed or renamed since the run started): the run cannot continue`);
  return at;
}

/** The actions from `start`, then the run's end. Not async where no checkpoint is written (every
 *  HTTP request's run): the sequence's promise is mapped once, without an async function's
 *  suspension and resumption. */
function proceed(i: InterfacePlan, state: RunState, s: Scope, o: Continuing, start: number): Promise<RunResult> {
  if (o.checkpoint) return proceedHeld(i, state, s, o, start, o.checkpoint);
  return untilShutdown(runSequence(i.actions, s, state.seq, state, o.services, start), state, o.services, start, i.actions.length,
    (paused) => (paused ? suspend(i, state, paused, o) : concluded(i, state, s)));
}

/** A run held under a lease: each settled action's progress is persisted before the next starts. */
async function proceedHeld(i: InterfacePlan, state: RunState, s: Scope, o: Continuing, start: number, checkpoint: (state: RunState) => Promise<void>): Promise<RunResult> {
  const settled = async (next: number) => {
    state.cursor = next;
    // The next action's execution id is fixed before it starts, so a node taking the run over
    // re-runs it with the same idempotency key (at-least-once for the action in flight).
    const a = i.actions[next];
    // A retry resumed from a suspension keeps its attempt count and id.
    if (state.retry?.action !== a?.name) state.retry = a ? { action: a.name, attempts: 0, executionId: o.env.uuid() } : undefined;
    await checkpoint(state);
  };
  // The delivery (a callback's body, a finished wait) is persisted before anything else runs.
  await settled(start);
  return untilShutdown(runSequence(i.actions, s, state.seq, state, o.services, start, settled), state, o.services, start, i.actions.length,
    (paused) => (paused ? suspend(i, state, paused, o) : concluded(i, state, s)));
}

/** Every action settled: the run's result (an action's failure, else the interface's assert). */
function concluded(i: InterfacePlan, state: RunState, s: Scope): RunResult | Promise<RunResult> {
  state.cursor = i.actions.length;
  const failed = failureOf(state);
  if (failed || !i.assert) return finish(i, state, s, failed);
  return interfaceAssert(i, state, s).then((f) => finish(i, state, s, f));
}

/** Parks the run in the store; the caller gets 202 with the run id. */
async function suspend(i: InterfacePlan, state: RunState, p: Paused, o: Continuing): Promise<RunResult> {
  const store = o.services.store!;
  const at = p.suspend.at !== undefined ? new Date(p.suspend.at) : null;
  state.cursor = p.index;
  state.status = 'suspended';
  state.wake = { reason: p.suspend.reason, action: i.actions[p.index]!.name, ...(at ? { at: at.toISOString() } : {}), ...(p.suspend.token ? { token: '[token]' } : {}) };
  // Stored redacted like every run record: a resumed run reads secrets from its environment again.
  // The token is the store's key (its own column), never the record's text: GET /_ap/runs, captures.
  await store.suspend({ state: redactRun(state, redactorOf(o.env)), wakeAt: at, token: p.suspend.token ?? null });
  const body = { run_id: state.id, status: 'suspended', action: state.wake.action, reason: p.suspend.reason, ...(at ? { resume_at: at.toISOString() } : {}) };
  return { state, response: { status: 202, headers: {}, body } };
}

/** An action's unhandled failure or failed assert (the interface's own assert is interfaceAssert). */
function failureOf(state: RunState): RunFailure | undefined {
  const unhandled = state.seq.unhandled;
  if (unhandled.length) {
    const name = unhandled[unhandled.length - 1]!;
    const rec = state.steps[name]!;
    // A refusal (a hostile request value, a denied destination) says why: the client can act on it.
    const refused = state.seq.failures[name]?.kind === 'refused' && rec.error;
    return { kind: 'action', action: name, message: refused ? `action "${name}" refused: ${rec.error}` : `action "${name}" failed`, ...(rec.error ? { detail: rec.error } : {}) };
  }
  for (const name of state.seq.order) {
    const a = state.steps[name]!.assert;
    if (a && !a.ok) return { kind: 'assert', action: name, message: a.message ?? `assertion failed in action "${name}"`, detail: a.failures.join('; ') };
  }
  return undefined;
}

async function interfaceAssert(i: InterfacePlan, state: RunState, s: Scope): Promise<RunFailure | undefined> {
  const v = await runAssert(i.assert!, successBody(i, state), s);
  return v.ok ? undefined : { kind: 'interface_assert', message: v.message ?? 'assertion failed', detail: v.failures.join('; ') };
}

function finish(i: InterfacePlan, state: RunState, s: Scope, f: RunFailure | undefined): RunResult {
  let result: RunResult;
  if (f) {
    state.status = 'failed';
    const status = errorStatus(i, state, f);
    // Stryker disable next-line ConditionalExpression: without a failing action's name the search finds none either
    const failing = f.action ? i.actions.find((a) => a.name === f.action) : undefined;
    // Error bodies echo upstream data and messages (show_error_detail): secrets never leave in them.
    const body = redactorOf(s.env)(errorBody(i, state, f, status, s));
    result = { state, failure: f, response: { status, headers: responseHeaders(i, s, failing?.responseOnError?.headers), body } };
  } else {
    state.status = 'succeeded';
    // The last succeeded action with a response_on_success decides (a backwards loop: no copies).
    let ros: (typeof i.actions)[number]['responseOnSuccess'];
    for (let k = i.actions.length - 1; k >= 0 && !ros; k--) {
      const a = i.actions[k]!;
      // Stryker disable next-line OptionalChaining: a run that finished without failing has a record for every action
      if (a.responseOnSuccess && state.steps[a.name]?.outcome === 'succeeded') ros = a.responseOnSuccess;
    }
    const body = ros?.body ? ros.body(s) : i.response.templates?.success ? i.response.templates.success(s) : successBody(i, state);
    result = { state, response: { status: ros?.httpCode ?? 200, headers: responseHeaders(i, s, ros?.headers), body } };
  }
  return result;
}

/** The executor as services hand it to actions that run other interfaces (agent tools). */
export const runnerOf = (env: Environment, services: Services): RunInterface => async (plan, iface, request, trigger) => {
  const r = await executeInterface(plan, iface, request, { trigger, env, services });
  return { status: r.response.status, body: r.response.body, failed: !runSucceeded(r) };
};

/** A run that answered without failing (what tool calls, socket frames and authorizers count as success). */
export const runSucceeded = (r: RunResult): boolean => r.failure === undefined && r.response.status < 400;

/** The message of a failed run's error body (`{"error": {"message"}}`), if it has one. */
export function runErrorMessage(r: RunResult): string | undefined {
  const m = (r.response.body as { error?: { message?: unknown } } | null)?.error?.message;
  return typeof m === 'string' ? m : undefined;
}
