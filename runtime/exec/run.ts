// The executor: one function runs an interface's plan for a request, whichever way the plan's
// leaves were made, and returns the run state and the response.
import type { InterfacePlan, Plan } from '../plan.ts';
import type { RequestData, RunState, Trigger } from '../run-state.ts';
import type { Environment, Scope } from '../scope.ts';
import type { Services } from '../services.ts';

import { runAssert } from './assert.ts';
import { resolveParams } from './params.ts';
import { errorBody, errorStatus, responseHeaders, successBody, type HttpResponse, type RunFailure } from './response.ts';
import { runSequence, type SequenceResult } from './sequence.ts';

export interface RunOptions {
  trigger: Trigger;
  env: Environment;
  services: Services;
  runId?: string;
}

export interface RunResult {
  state: RunState;
  response: HttpResponse;
  failure?: RunFailure;
}

export function newRunState(plan: Plan, i: InterfacePlan, request: RequestData, o: RunOptions): RunState {
  return {
    id: o.runId ?? o.env.uuid(),
    config: plan.name,
    iface: i.name,
    trigger: o.trigger,
    startedAt: new Date(o.services.clock.now()).toISOString(),
    request,
    // No prototype: action names are data, even one called __proto__ or constructor.
    steps: Object.create(null) as RunState['steps'],
    order: [],
    cursor: 0,
    status: 'running',
  };
}

export async function executeInterface(plan: Plan, i: InterfacePlan, request: RequestData, o: RunOptions): Promise<RunResult> {
  const state = newRunState(plan, i, request, o);
  const s: Scope = { body: request.body, rawBody: request.rawBody, params: { ...request.params }, headers: request.headers, steps: state.steps, state: {}, env: o.env };
  const params = resolveParams(i.params, s);
  if (!params.ok) return finish(i, state, s, undefined, { kind: 'params', message: params.message });
  const seq = await runSequence(i.actions, s, state, o.services);
  state.order = seq.order;
  state.cursor = i.actions.length;
  return finish(i, state, s, seq, failureOf(i, state, seq, s));
}

function failureOf(i: InterfacePlan, state: RunState, seq: SequenceResult, s: Scope): RunFailure | undefined {
  const unhandled = [...seq.unhandled];
  if (unhandled.length) {
    const name = unhandled[unhandled.length - 1]!;
    const rec = state.steps[name]!;
    return { kind: 'action', action: name, message: `action "${name}" failed`, ...(rec.error ? { detail: rec.error } : {}) };
  }
  for (const name of seq.order) {
    const a = state.steps[name]!.assert;
    if (a && !a.ok) return { kind: 'assert', action: name, message: a.message ?? `assertion failed in action "${name}"`, detail: a.failures.join('; ') };
  }
  if (i.assert) {
    const v = runAssert(i.assert, successBody(i, state), s);
    if (!v.ok) return { kind: 'interface_assert', message: v.message ?? 'assertion failed', detail: v.failures.join('; ') };
  }
  return undefined;
}

function finish(i: InterfacePlan, state: RunState, s: Scope, seq: SequenceResult | undefined, f: RunFailure | undefined): RunResult {
  if (f) {
    state.status = 'failed';
    const status = errorStatus(i, state, seq, f);
    const failing = f.action ? i.actions.find((a) => a.name === f.action) : undefined;
    return { state, failure: f, response: { status, headers: responseHeaders(i, s, failing?.responseOnError?.headers), body: errorBody(i, state, f, status, s) } };
  }
  state.status = 'succeeded';
  const decider = [...i.actions].reverse().find((a) => a.responseOnSuccess && state.steps[a.name]?.outcome === 'succeeded');
  const ros = decider?.responseOnSuccess;
  const body = ros?.body ? ros.body(s) : i.response.templates?.success ? i.response.templates.success(s) : successBody(i, state);
  const headers = responseHeaders(i, s, ros?.headers);
  return { state, response: { status: ros?.httpCode ?? 200, headers, body } };
}

