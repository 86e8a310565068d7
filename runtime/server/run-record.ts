// The record of a finished run kept for the runs API (GET /_ap/runs/<id>): the run state as it
// ended (its request, each action's record, the sequence), a scheduled run's tick and the
// takeovers, and the response without its headers. The request and the actions' data are what an
// operator opens a failed run for and what a re-run sends again (docs/decisions.md, "Runs API"); it
// is kept only for runs keptFinished keeps, so a run that answered its caller with a success costs
// nothing here. At finish the record is only written out, with the response body's
// JSON text the HTTP reply made spliced in; the redaction of secrets waits until a store writes it
// (Postgres: at once) or someone reads it (memory: most runs never are). The redactor's secrets are
// fixed at start, so a later redaction gives the same text.
import { runSucceeded, type RunResult } from '../exec/run.ts';
import type { RunState } from '../run-state.ts';
import type { RecordText } from '../store-types.ts';
import { redactRunJson, type Redactor } from '../values/redact.ts';
import { copyRecord, setOwn } from '../values/build.ts';

/** Triggers whose caller receives the run's response itself (an HTTP client, an MCP tool call, a
 *  WebSocket frame's sender). */
const ANSWERED: ReadonlySet<RunState['trigger']> = new Set(['http', 'mcp', 'ws']);

/** Whether a finished run is kept for GET /_ap/runs/<id>: a failed run (an operator looks it up by the
 *  x-run-id a client reports) and a run nobody waited on (a schedule's tick, an MQTT message) are; a
 *  run whose caller got a success at once is not: the caller holds everything the record would show,
 *  and execution history is the capture's, off unless an interface asks (spec: `capture`, "absent
 *  means off"). Writing it was the largest per-request cost left on the request path. */
export function keptFinished(result: RunResult): boolean {
  return !(ANSWERED.has(result.state.trigger) && runSucceeded(result));
}

/** The steps without an HTTP action's `body` where it is its `data` (no post_transforms): the same
 *  value written once (the detail shows `data`), which halved the record of a failed HTTP run. */
function recordedSteps(steps: RunState['steps']): RunState['steps'] {
  let out: RunState['steps'] | undefined;
  for (const k of Object.keys(steps)) {
    const s = steps[k]!;
    if (s.body === undefined || s.body !== s.data) continue;
    out ??= copyRecord(steps);
    const { body: _same, ...rest } = s;
    setOwn(out, k, rest); // an action may be named __proto__
  }
  return out ?? steps;
}

const redactions = new WeakMap<Redactor, RecordText['redact']>();

/** `state`: the record without the response body (what a store may keep when the text is too large).
 *  The text comes in parts (the record, its response body's JSON, the closing brackets): a store
 *  writes them one after another, where one concatenated string would be copied flat twice. */
export function finishedRecord(result: RunResult, redact: Redactor): { state: RunState; json: RecordText } {
  const st = result.state;
  const res = result.response;
  const state: RunState = {
    id: st.id, config: st.config, iface: st.iface, trigger: st.trigger, startedAt: st.startedAt,
    request: st.request, steps: recordedSteps(st.steps), seq: st.seq, cursor: st.cursor, status: st.status,
    // A scheduled tick's run (which tick, which attempt) and the takeovers at its last action, left
    // out when undefined. The response stays last.
    tick: st.tick, takeovers: st.takeovers,
    response: { status: res.status, headers: {}, body: null },
  };
  const body = res.body;
  const bodyJson = body === undefined ? undefined : result.bodyJson ?? JSON.stringify(body);
  const text = JSON.stringify(state);
  // `…"body":null}}` → `…"body":<the body's JSON>}}`; no body: the key is left out, as JSON.stringify does.
  const parts = bodyJson === undefined ? [`${text.slice(0, -14)}}}`] : [text.slice(0, -6), bodyJson, '}}'];
  let r = redactions.get(redact);
  if (!r) redactions.set(redact, (r = (raw: string) => redactRunJson(JSON.parse(raw) as RunState, redact).json));
  return { state, json: { parts, redact: r } };
}
