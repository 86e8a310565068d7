// Turning a finished run into an HTTP response. The rules and the error body's shape are in
// docs/responses.md; both paths share this code, so their bytes are identical.
import type { ActionPlan, InterfacePlan } from '../plan.ts';
import type { RunState, StepRecord } from '../run-state.ts';
import type { Scope } from '../scope.ts';
import { text } from '../values/text.ts';
import { setOwn } from '../values/build.ts';
// hide_data_on_empty means what the is_empty check means.
import { isEmpty } from '../asserts/flag.ts';

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export interface RunFailure {
  /** `unavailable`: refused before any action ran (503): it would wait, and no durable store can hold it. */
  kind: 'params' | 'action' | 'assert' | 'interface_assert' | 'unavailable';
  message: string;
  action?: string;
  detail?: string;
}


/** The success body: the last `output: http` action's data, else visible data keyed by action name. */
export function successBody(i: InterfacePlan, state: RunState): unknown {
  let out: ActionPlan | undefined;
  for (const a of i.actions) if (a.output === 'http' && state.steps[a.name] && state.steps[a.name]!.outcome !== 'skipped') out = a;
  if (out) return state.steps[out.name]!.data ?? null;
  const body: Record<string, unknown> = {};
  for (const a of i.actions) {
    const r = state.steps[a.name];
    if (!r || r.outcome === 'skipped' || a.hide?.action) continue;
    if (r.outcome === 'succeeded' && a.hide?.dataOnSuccess) continue;
    if (r.outcome === 'failed' && (a.hide?.dataOnError || a.hide?.errors)) continue;
    if (a.hide?.dataOnEmpty && isEmpty(r.data)) continue;
    setOwn(body, a.name, r.data ?? null);
  }
  return body;
}

/** The error status: per-action response_on_error, depends_on code, inherited, configured, strategy, defaults. */
export function errorStatus(i: InterfacePlan, state: RunState, f: RunFailure): number {
  const seq = state.seq;
  if (f.kind === 'params') return 400;
  if (f.kind === 'unavailable') return 503;
  const failing = f.action ? i.actions.find((a) => a.name === f.action) : undefined;
  if (failing?.responseOnError?.httpCode !== undefined) return failing.responseOnError.httpCode;
  if (seq.forced && seq.forced.action === f.action) return seq.forced.status;
  const r = i.response;
  if (r.inheritError) {
    for (const name of r.inheritError) {
      const st = state.steps[name];
      if (st?.outcome === 'failed' && st.status !== undefined) return st.status;
    }
  }
  if (r.httpCodeOnError !== undefined) return r.httpCodeOnError;
  if (r.fallbackStrategy) {
    const picked = byStrategy(r.fallbackStrategy, state);
    if (picked !== undefined) return picked;
  }
  if (r.fallback !== undefined) return r.fallback;
  if (f.kind === 'assert' || f.kind === 'interface_assert') return 422;
  const failure = f.action ? seq.failures[f.action] : undefined;
  if (failure?.kind === 'transport') return failure.cls === 'timeout' ? 504 : 502;
  if (failure?.kind === 'status') return 502;
  if (failure?.kind === 'refused') return failure.status;
  return 500;
}

function byStrategy(strategy: NonNullable<InterfacePlan['response']['fallbackStrategy']>, state: RunState): number | undefined {
  const ran = state.seq.order.map((n) => state.steps[n]!).filter((r) => r.outcome !== 'skipped');
  const failedWithStatus = (r: StepRecord) => r.outcome === 'failed' && r.status !== undefined && r.status >= 400;
  if (strategy === 'last_action') {
    const last = ran[ran.length - 1];
    return last && last.status !== undefined && last.status >= 400 ? last.status : undefined;
  }
  if (strategy === 'last_action_with_error') return [...ran].reverse().find(failedWithStatus)?.status;
  return ran.find(failedWithStatus)?.status;
}

export function errorBody(i: InterfacePlan, state: RunState, f: RunFailure, status: number, s: Scope): unknown {
  const failing = f.action ? i.actions.find((a) => a.name === f.action) : undefined;
  if (failing?.responseOnError?.body) return failing.responseOnError.body(s);
  if (i.response.customBody) return i.response.customBody(s);
  if (i.response.templates?.error) return i.response.templates.error(s);
  const error: Record<string, unknown> = { status, message: f.message };
  // Stryker disable next-line ConditionalExpression: equivalent, JSON leaves out a key whose value is undefined
  if (f.action) error.action = f.action;
  const rec = f.action ? state.steps[f.action] : undefined;
  if (i.response.showErrorDetail && !failing?.hide?.errors && f.detail) error.detail = f.detail;
  if (i.response.showErrorDetail && !failing?.hide?.dataOnError && !failing?.hide?.errors && rec?.data != null) error.data = rec.data;
  return { error };
}

/** Headers: interface response.headers, then the deciding action's own. Values become strings. */
export function responseHeaders(i: InterfacePlan, s: Scope, own?: ((s: Scope) => unknown) | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of [i.response.headers, own]) {
    // The schema admits only a mapping here, so a value is an object.
    const v = h?.(s) as Record<string, unknown> | undefined;
    if (v) for (const [k, x] of Object.entries(v)) out[k.toLowerCase()] = text(x);
  }
  return out;
}
