// The runs API's JSON (GET /_ap/runs, GET /_ap/runs/<id>): stable snake_case names, documented in
// docs/guide.md ("Runs API"); the inspector page reads these and nothing else. Every value shown
// comes from a stored record, redacted when it was stored (or, in memory, when read).
import { isTransportClass, type RunState, type StepRecord } from '../run-state.ts';
import { isRefusalStatus } from '../refused.ts';
import type { RunEntry } from '../store-types.ts';

const FINISHED: ReadonlySet<RunState['status']> = new Set(['succeeded', 'failed', 'cancelled']);

const wakeView = (w: { reason: string; action: string; at?: string }) => ({ reason: w.reason, action: w.action, ...(w.at ? { at: w.at } : {}) });

/** One row of the list. */
export function entryView(e: RunEntry) {
  const finished = FINISHED.has(e.status);
  return {
    id: e.id, config: e.config, interface: e.iface, trigger: e.trigger, status: e.status,
    started_at: e.startedAt, updated_at: e.updatedAt,
    // The record's last write is the run's end once it finished.
    ...(finished ? { finished_at: e.updatedAt, duration_ms: Math.max(0, Date.parse(e.updatedAt) - Date.parse(e.startedAt)) } : {}),
    ...(e.httpCode !== undefined ? { http_code: e.httpCode } : {}),
    ...(e.wake && e.status === 'suspended' ? { wake: wakeView(e.wake) } : {}),
  };
}

/** What GET /_ap/runs/<id> answers to any caller the gate lets through (its fields since the route
 *  was made: a client polling a run it started reads these). */
export function statusView(run: RunState) {
  return {
    id: run.id, config: run.config, interface: run.iface, status: run.status, started_at: run.startedAt,
    current_action: run.status === 'suspended' || run.status === 'running' ? run.wake?.action ?? null : null,
    ...(run.wake ? { wake: run.wake.at ? { reason: run.wake.reason, at: run.wake.at } : { reason: run.wake.reason } } : {}),
    ...(run.response ? { outcome: { http_code: run.response.status, body: run.response.body } } : {}),
  };
}

/** The same with the admin token: the trigger, the request and each action in the order it finished
 *  (a waiting one last), with attempts, duration, outcome and data. */
export function detailView(run: RunState, rerun: { possible: boolean; reason?: string }) {
  const actions = (run.seq?.order ?? []).map((name) => actionView(name, run.steps[name], failureOf(run, name)));
  if (run.status === 'suspended' && run.wake && !run.seq.order.includes(run.wake.action)) {
    actions.push({ name: run.wake.action, outcome: 'waiting', attempts: run.retry?.action === run.wake.action ? run.retry.attempts : 0, wake: wakeView(run.wake) });
  }
  const rq = run.request;
  return {
    ...statusView(run),
    trigger: run.trigger,
    request: { method: rq.method, path: rq.path, params: rq.params, headers: rq.headers, body: rq.body ?? null },
    actions,
    rerun: rerun.possible ? { possible: true } : { possible: false, reason: rerun.reason },
  };
}

/** How a failed action failed, where that decided the answer, as the runtime classified it (the
 *  record's `seq.failures`): a transport failure's class (504 for a timeout, 502 otherwise, and the
 *  retries), or a refusal's status (and `refused_in: settings` when its settings or input refused it,
 *  before its kind ran). Nothing for any other failure, for a record written before these were shown,
 *  and for anything a stored record holds there that is not the runtime's own (an own property, a
 *  known kind, one of its classes or refusal statuses). */
function failureOf(run: RunState, name: string): Record<string, unknown> {
  const failures = run.seq?.failures as Record<string, unknown> | undefined;
  const f = failures && typeof failures === 'object' && Object.hasOwn(failures, name) ? failures[name] : undefined;
  if (!f || typeof f !== 'object') return {};
  const { kind, cls, status, settings } = f as { kind?: unknown; cls?: unknown; status?: unknown; settings?: unknown };
  if (kind === 'transport') return isTransportClass(cls) ? { transport: cls } : {};
  if (kind === 'refused' && isRefusalStatus(status)) return { refused: status, ...(settings === true ? { refused_in: 'settings' } : {}) };
  return {};
}

function actionView(name: string, s: StepRecord | undefined, failure: Record<string, unknown>): Record<string, unknown> {
  if (!s) return { name, outcome: 'unknown', attempts: 0 };
  const out: Record<string, unknown> = { name, outcome: s.outcome, attempts: s.attempts };
  if (s.ms !== undefined) out.duration_ms = s.ms;
  if (s.status !== undefined) out.http_status = s.status;
  if (s.error !== undefined) out[s.outcome === 'skipped' ? 'reason' : 'error'] = s.error;
  // How it failed where that decided the answer (504 for a timeout, 502 otherwise, a refusal's
  // status) and the retries: `pipewright test --from-run` writes it into the action's stand-in.
  if (s.outcome === 'failed') Object.assign(out, failure);
  if (s.assert) out.assert = s.assert;
  if ('data' in s) out.data = s.data ?? null;
  // An HTTP action's raw body, where post_transforms made its data something else (a finished run's
  // record keeps one of the two when they are the same: run-record.ts; a parked run has both).
  if (s.body !== undefined && JSON.stringify(s.body) !== JSON.stringify(s.data)) out.body = s.body;
  return out;
}
