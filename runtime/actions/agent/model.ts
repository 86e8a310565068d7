// One chat-completions call over undici (the HTTP action's pools): the request shape most model servers speak, a timeout per
// call, and failures classified like an HTTP action's so the action's retry rules apply.
import { getDispatcher } from '../http/pool.ts';
import type { Dispatcher } from 'undici';
import { send } from '../http/send.ts';
import { SendError } from '../http/transport-error.ts';
import { checkUrl } from '../../network/dialer.ts';
import { Refused } from '../../refused.ts';

/** A model answer larger than this is refused (the HTTP action's bound). */
const MAX_REPLY_BYTES = 32 * 1024 * 1024;
import type { ActionOutcome } from '../types.ts';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
}
export interface ToolCall { id: string; type: 'function'; function: { name: string; arguments: string } }
export interface ToolSpec { type: 'function'; function: { name: string; description?: string; parameters: Record<string, unknown> } }

export interface ModelCall {
  url: string;
  model: string;
  headers: Record<string, string>;
  messages: ChatMessage[];
  tools: ToolSpec[];
  temperature?: number;
  timeoutMs: number;
  signal?: AbortSignal;
  /** `pipewright test`: the case's recordings instead of the pools (runtime/testing/stand-ins.ts). */
  dispatcher?: Dispatcher;
}

export type ModelReply = { ok: true; message: ChatMessage } | { ok: false; outcome: ActionOutcome };

const fail = (error: string, failure: ActionOutcome['failure'], extra: Partial<ActionOutcome> = {}): ModelReply =>
  ({ ok: false, outcome: { ok: false, error: `agent: ${error}`, ...(failure ? { failure } : {}), ...extra } });

export async function callModel(c: ModelCall): Promise<ModelReply> {
  const payload = { model: c.model, messages: c.messages, ...(c.tools.length ? { tools: c.tools } : {}), ...(c.temperature !== undefined ? { temperature: c.temperature } : {}) };
  const timeout = AbortSignal.timeout(c.timeoutMs);
  let res;
  try {
    // The HTTP action's keep-alive pools (their connections resolve through the dialer) and sender;
    // an IP-literal host is checked here, before anything is sent (no lookup happens for it).
    const url = new URL(c.url);
    checkUrl(url.origin);
    const body = Buffer.from(JSON.stringify(payload));
    const signal = c.signal ? AbortSignal.any([c.signal, timeout]) : timeout;
    res = await send(c.dispatcher ?? getDispatcher(url.origin), { origin: url.origin, method: 'POST', path: `${url.pathname}${url.search}`, headers: { 'content-type': 'application/json', accept: 'application/json', ...c.headers }, body }, signal, MAX_REPLY_BYTES);
  } catch (e) {
    const refused = e instanceof SendError ? e.cause : e;
    if (refused instanceof Refused) return fail(`${refused.message} (the model url)`, { kind: 'refused', status: refused.status });
    if (timeout.aborted) return fail(`the model call timed out after ${c.timeoutMs / 1000} s`, { kind: 'transport', cls: 'timeout' });
    return fail(`the model endpoint could not be reached (${(e as Error).message})`, { kind: 'transport', cls: 'connect' });
  }
  const text = res.body.toString('utf8');
  if (res.status < 200 || res.status > 299) {
    const retryAfter = Number(res.headers['retry-after']);
    return fail(`the model endpoint answered ${res.status}: ${text.slice(0, 300)}`, { kind: 'status', status: res.status },
      { status: res.status, ...(Number.isFinite(retryAfter) ? { retryAfterMs: retryAfter * 1000 } : {}) });
  }
  let parsed: { choices?: Array<{ message?: ChatMessage }> };
  try { parsed = JSON.parse(text); } catch { return fail('the model answered something that is not JSON', { kind: 'other' }); }
  const message = parsed.choices?.[0]?.message;
  if (!message || typeof message !== 'object') return fail('the model answer has no choices[0].message', { kind: 'other' });
  return { ok: true, message };
}
