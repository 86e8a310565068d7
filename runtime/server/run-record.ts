// The record of a finished run kept for GET /_ap/runs/<id>: its outcome and bookkeeping, not the
// request body or each action's data (megabytes per run under load; the capture keeps them when one
// is on). At finish it is only written out, with the response body's JSON text the HTTP reply made
// spliced in; the masking of credential headers and the redaction of secrets wait until a store
// writes it (Postgres: at once) or someone reads it (memory: most runs never are). The redactor's
// secrets are fixed at start, so a later redaction gives the same text.
import type { RunResult } from '../exec/run.ts';
import type { RunState } from '../run-state.ts';
import type { RecordText } from '../store-types.ts';
import { redactRunJson, type Redactor } from '../values/redact.ts';

const redactions = new WeakMap<Redactor, RecordText['redact']>();

/** `state`: the record without the response body (what a store may keep when the text is too large).
 *  The text comes in parts (the state, the response's status and headers, its body's JSON): a store
 *  writes them one after another, where one concatenated string would be copied flat twice. */
export function finishedRecord(result: RunResult, redact: Redactor): { state: RunState; json: RecordText } {
  const st = result.state;
  const res = result.response;
  // Serialised with `response` undefined (left out of the text) and given it afterwards: the same
  // text as the state without its response, with no object-rest copies (slow paths in V8).
  const state: RunState = { ...st, request: { ...st.request, body: null, rawBody: '' }, steps: {}, response: undefined };
  const head = JSON.stringify(state);
  state.response = { status: res.status, headers: res.headers, body: null };
  const body = res.body;
  const bodyJson = body === undefined ? undefined : result.bodyJson ?? JSON.stringify(body);
  const response = JSON.stringify({ status: res.status, headers: res.headers });
  const parts = [head.slice(0, -1), head.length > 2 ? ',"response":' : '"response":', response.slice(0, -1)];
  if (bodyJson !== undefined) parts.push(',"body":', bodyJson);
  parts.push('}}');
  let r = redactions.get(redact);
  if (!r) redactions.set(redact, (r = (text: string) => redactRunJson(JSON.parse(text) as RunState, redact).json));
  return { state, json: { parts, redact: r } };
}
