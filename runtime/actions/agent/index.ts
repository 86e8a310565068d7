// `agent` action: a chat-completions tool loop. Each model turn may ask for tools; the calls of one
// turn run concurrently (interfaces of this config through the executor, remote MCP tools through
// the SDK client) and their results go back to the model, until it answers without tool calls or
// `max_iterations` model calls are spent. Data: {message, transcript, iterations}.
import type { ActionKind, ActionOutcome } from '../types.ts';
import { optionalDurationMs } from '../../values/duration.ts';
import { callModel, type ChatMessage, type ToolCall } from './model.ts';
import { loadMemory, saveMemory, type MemorySettings } from './memory.ts';
import { openToolbox, type RemoteServer, type Toolbox } from './tools.ts';
import { Refused } from '../../refused.ts';

export const AGENT_LIMITS = { iterations: 4, maxIterations: 12, timeoutSecs: 60, window: 10, maxWindow: 50, ttlMs: 24 * 3600_000 };

export interface TranscriptEntry { iteration: number; tool: string; source: 'interface' | 'mcp'; arguments: unknown; ok: boolean; result: unknown }

type Obj = Record<string, unknown>;
const fail = (error: string): ActionOutcome => ({ ok: false, error: `agent: ${error}`, failure: { kind: 'other' } });
const strMap = (v: unknown): Record<string, string> => Object.fromEntries(Object.entries((v ?? {}) as Obj).map(([k, x]) => [k, String(x)]));

function userMessages(input: unknown): ChatMessage[] {
  if (input === undefined || input === null) return [];
  if (Array.isArray(input)) return input.map((m) => ({ role: String((m as Obj).role ?? 'user') as ChatMessage['role'], content: String((m as Obj).content ?? '') }));
  return [{ role: 'user', content: typeof input === 'string' ? input : JSON.stringify(input) }];
}

export const agent: ActionKind = async (config, ctx) => {
  const c = (config ?? {}) as Obj;
  if (typeof c.url !== 'string' || typeof c.model !== 'string') return fail('"url" and "model" are required');
  const maxIterations = Number(c.max_iterations ?? AGENT_LIMITS.iterations);
  if (!Number.isInteger(maxIterations) || maxIterations < 1 || maxIterations > AGENT_LIMITS.maxIterations) return fail(`max_iterations must be 1 to ${AGENT_LIMITS.maxIterations}`);
  const timeoutMs = Number(c.timeout ?? AGENT_LIMITS.timeoutSecs) * 1000;
  const mem = memorySettings(c.memory as Obj | undefined, ctx.run.config);
  if (typeof mem === 'string') return fail(mem);
  const store = ctx.services.store;
  if (mem && !store) return fail('memory needs a store');
  const now = () => ctx.services.clock.now();

  const history = mem && store ? await loadMemory(store, mem, now()) : [];
  const fresh = userMessages(c.input !== undefined ? c.input : ctx.input);
  const messages: ChatMessage[] = [...(typeof c.system === 'string' ? [{ role: 'system' as const, content: c.system }] : []), ...history, ...fresh];
  const remotes: RemoteServer[] = ((c.mcp ?? []) as Obj[]).map((r) => ({ url: String(r.url), headers: strMap(r.headers), ...(Array.isArray(r.only) ? { only: r.only.map(String) } : {}) }));
  let box: Toolbox;
  try { box = await openToolbox(((c.tools ?? []) as unknown[]).map(String), remotes, ctx, strMap(c.tool_headers)); } catch (e) {
    if (e instanceof Refused) return { ok: false, error: `agent: ${e.message}`, failure: { kind: 'refused', status: e.status } };
    return fail((e as Error).message.replace(/^agent: /, ''));
  }
  const transcript: TranscriptEntry[] = [];
  try {
    for (let iteration = 1; iteration <= maxIterations; iteration++) {
      const reply = await callModel({
        url: c.url, model: c.model, headers: strMap(c.headers), messages, tools: [...box.tools.values()].map((t) => t.spec),
        ...(typeof c.temperature === 'number' ? { temperature: c.temperature } : {}), timeoutMs, signal: ctx.signal, trace: ctx.trace, ...(ctx.services.standIns ? { dispatcher: ctx.services.standIns.dispatcher } : {}),
      });
      if (!reply.ok) return reply.outcome;
      const msg: ChatMessage = { role: 'assistant', content: reply.message.content ?? null, ...(reply.message.tool_calls?.length ? { tool_calls: reply.message.tool_calls } : {}) };
      messages.push(msg);
      if (!msg.tool_calls) {
        if (mem && store) await saveMemory(store, mem, messages.filter((m) => m.role !== 'system'), now());
        return { ok: true, data: { message: msg.content, transcript, iterations: iteration } };
      }
      const planned = msg.tool_calls.map((call) => plan(call, box));
      const bad = planned.find((p) => typeof p === 'string');
      if (bad) return fail(bad as string);
      const results = await Promise.all((planned as Planned[]).map(async (p) => {
        const r = await p.tool.call(p.args).catch((e: Error) => ({ ok: false, text: e.message, data: e.message }));
        transcript.push({ iteration, tool: p.name, source: p.tool.source, arguments: p.args, ok: r.ok, result: r.data });
        return { role: 'tool' as const, tool_call_id: p.id, content: r.ok ? r.text : `error: ${r.text}` };
      }));
      messages.push(...results);
    }
    return fail(`the model still asked for tools after max_iterations (${maxIterations}) model calls`);
  } finally {
    await box.close();
  }
};

type Planned = { id: string; name: string; tool: NonNullable<ReturnType<Toolbox['tools']['get']>>; args: Record<string, unknown> };

/** A tool call the loop can run, or why it cannot (an unknown tool, arguments that are not an object). */
function plan(call: ToolCall, box: Toolbox): Planned | string {
  const name = call?.function?.name;
  const tool = typeof name === 'string' ? box.tools.get(name) : undefined;
  if (!tool) return `the model called an unknown tool ${JSON.stringify(name)} (offered: ${[...box.tools.keys()].join(', ') || 'none'})`;
  let args: unknown;
  try { args = JSON.parse(call.function.arguments || '{}'); } catch { return `the model sent malformed arguments for "${name}": ${String(call.function.arguments).slice(0, 200)}`; }
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return `the model sent arguments for "${name}" that are not an object`;
  return { id: String(call.id), name, tool, args: args as Record<string, unknown> };
}

function memorySettings(m: Obj | undefined, config: string): MemorySettings | undefined | string {
  if (!m) return undefined;
  if (m.key === undefined || m.key === null || m.key === '') return 'memory.key must be non-empty';
  const window = Number(m.window ?? AGENT_LIMITS.window);
  if (!Number.isInteger(window) || window < 1 || window > AGENT_LIMITS.maxWindow) return `memory.window must be 1 to ${AGENT_LIMITS.maxWindow}`;
  return { key: String(m.key), window, ttlMs: optionalDurationMs(m.ttl) ?? AGENT_LIMITS.ttlMs, namespace: typeof m.namespace === 'string' && m.namespace ? m.namespace : config };
}
