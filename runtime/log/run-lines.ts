// One line when a run ends, suspends or resumes, whatever started it (schedule, MQTT, WebSocket,
// MCP, CLI, a resume, a replay): run_id, config, interface, trigger, status (the run's: succeeded,
// failed, suspended, running) and duration_ms (since the run started, waits included). A run an HTTP
// request started and answered has its request's line instead (runtime/server/request-log.ts: the
// same fields, with run_status beside the HTTP status): one line per request, not two.
import type { RunState } from '../run-state.ts';
import type { Logger } from './logger.ts';

/** What a run handed back (exec/run.ts RunResult). */
interface Ended { state: RunState; response: { status: number; body?: unknown }; failure?: { message: string; detail?: string } }

/** Since the run's start (its ISO startedAt: the run state is all a resumed run has). */
const since = (st: RunState, now: number): number => Math.max(0, now - Date.parse(st.startedAt));

function fields(st: RunState, now: number): Record<string, unknown> {
  return { run_id: st.id, config: st.config, interface: st.iface, trigger: st.trigger, status: st.status, duration_ms: since(st, now) };
}

/** A run that ended (succeeded or failed) or suspended: its outcome, and where a suspended one waits.
 *  A failure is a warning (error at a 5xx), as a failed action's own line is. */
export function logRunLine(log: Logger | undefined, r: Ended, now: number): void {
  if (!log) return;
  const st = r.state;
  const line = fields(st, now);
  line.http_status = r.response.status;
  if (st.status === 'suspended') {
    if (st.wake) line.wake = st.wake.at ? { reason: st.wake.reason, action: st.wake.action, at: st.wake.at } : { reason: st.wake.reason, action: st.wake.action };
    log.info(line, 'run suspended');
    return;
  }
  // Why it failed: the executor's failure, or the message of an answer made without one (a resume that failed).
  const error = r.failure?.message ?? (r.response.body as { error?: { message?: unknown } } | null | undefined)?.error?.message;
  if (st.status === 'failed' && error !== undefined) line.error = error;
  if (r.failure?.detail) line.detail = r.failure.detail;
  const level = st.status !== 'failed' ? 'info' : r.response.status >= 500 ? 'error' : 'warn';
  log[level](line, 'run finished');
}

/** A suspended run taken up again: what woke it (its time, a callback, a callback's timeout, a takeover
 *  of a run whose node died), the action it continues at, and the resume request's id for a callback. */
export function logRunResumed(log: Logger | undefined, st: RunState, by: 'wake' | 'callback' | 'timeout' | 'takeover', now: number, o: { reqId?: string | undefined; action?: string | undefined } = {}): void {
  if (!log) return;
  const line = fields(st, now);
  line.status = 'running';
  line.resumed_by = by;
  // The action it waits in; a run taken over has no wait: the action it was running (its cursor's).
  const action = st.wake?.action ?? o.action;
  if (action !== undefined) line.action = action;
  const reqId = o.reqId;
  if (reqId) line.req_id = reqId;
  log.info(line, 'run resumed');
}
