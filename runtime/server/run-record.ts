// The record of a finished run kept for GET /_ap/runs/<id>: its outcome and bookkeeping, not the
// request body or each action's data (megabytes per run under load; the capture keeps them when one
// is on). Nothing is serialised or redacted when the run finishes: the store asks for the redacted
// JSON text when it writes it (Postgres: at once) or when someone reads the run (memory: most runs
// never are). The redactor's secrets are fixed at start, so a later redaction gives the same text.
import type { RunResult } from '../exec/run.ts';
import type { RunState } from '../run-state.ts';
import { redactRunJson, type Redactor } from '../values/redact.ts';

export function finishedRecord(result: RunResult, redact: Redactor): { state: RunState; json: () => string } {
  const st = result.state;
  const { body, ...response } = result.response;
  // The body's JSON text, when the HTTP reply made it, is kept instead of the body's object graph.
  const bodyJson = result.bodyJson;
  const kept = bodyJson === undefined ? body : undefined;
  const state: RunState = { ...st, request: { ...st.request, body: null, rawBody: '' }, steps: Object.create(null) as RunState['steps'], response: { ...response, body: null } };
  const json = () => redactRunJson({ ...state, response: { ...response, body: bodyJson === undefined ? kept : JSON.parse(bodyJson) } }, redact).json;
  return { state, json };
}
