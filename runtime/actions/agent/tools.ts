// The tools an agent offers the model: interfaces of its own config (run through the executor, with
// the same input schemas as MCP tools) and the tools of remote MCP servers (through the SDK client).
import type { InterfacePlan, Plan } from '../../plan.ts';
import type { ActionContext } from '../types.ts';
import { toolInputSchema } from '../../tool-schema.ts';
import type { ToolSpec } from './model.ts';
import { checkUrl, dialerFetch } from '../../network/dialer.ts';
import { Refused } from '../../refused.ts';
import { traceHeadersBeside } from '../../tracing.ts';

export interface RemoteServer { url: string; headers: Record<string, string>; only?: string[] }

export interface Tool {
  spec: ToolSpec;
  source: 'interface' | 'mcp';
  /** Runs the tool; `ok: false` is a tool error the model is told about, not an action failure. */
  call(args: Record<string, unknown>): Promise<{ ok: boolean; text: string; data?: unknown }>;
}

export interface Toolbox { tools: Map<string, Tool>; close(): Promise<void> }


/**
 * A tool run's request: the model's arguments as the body; as headers the agent's `tool_headers`
 * (the run's own values, e.g. the caller's session token, which the model cannot set) and, tracing
 * on, the attempt's trace context (a configured traceparent wins, as in `http`).
 */
function localTool(plan: Plan, i: InterfacePlan, ctx: ActionContext, headers: Record<string, string>): Tool {
  const description = i.api?.summary ?? i.api?.description;
  return {
    source: 'interface',
    spec: { type: 'function', function: { name: i.name, ...(description ? { description } : {}), parameters: toolInputSchema(i) } },
    async call(args) {
      const request = { method: 'AGENT', path: i.route, params: {}, headers: { ...traceHeadersBeside(ctx.trace, headers), ...headers }, body: args, rawBody: JSON.stringify(args) };
      const r = await ctx.services.runInterface!(plan, i, request, 'agent');
      const text = typeof r.body === 'string' ? r.body : JSON.stringify(r.body ?? null);
      return { ok: !r.failed, text, data: r.body };
    },
  };
}

export async function openToolbox(names: string[], remotes: RemoteServer[], ctx: ActionContext, toolHeaders: Record<string, string> = {}): Promise<Toolbox> {
  const headers = Object.fromEntries(Object.entries(toolHeaders).map(([k, v]) => [k.toLowerCase(), v]));
  const tools = new Map<string, Tool>();
  const add = (t: Tool) => {
    if (tools.has(t.spec.function.name)) throw new Error(`agent: the tool name "${t.spec.function.name}" is offered twice`);
    tools.set(t.spec.function.name, t);
  };
  const plan = ctx.services.runInterface ? ctx.services.plans?.get(ctx.run.config) : undefined;
  for (const n of names) {
    const i = plan?.interfaces.find((x) => x.name === n);
    if (!plan || !i) throw new Error(`agent: tool "${n}" is not an interface of config "${ctx.run.config}"`);
    add(localTool(plan, i, ctx, headers));
  }
  const clients: Array<{ close(): Promise<void> }> = [];
  if (remotes.length) {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    try {
      for (const r of remotes) {
        const client = new Client({ name: 'pipewright-agent', version: '1.0.0' });
        // Every request of the transport (its redirects too) goes through the dialer's fetch, with
        // the attempt's trace context (tracing on; a configured traceparent header wins, as in `http`).
        try {
          checkUrl(new URL(r.url).origin);
          await client.connect(new StreamableHTTPClientTransport(new URL(r.url), { requestInit: { headers: { ...traceHeadersBeside(ctx.trace, r.headers), ...r.headers } }, fetch: fetchFor(ctx) }), ctx.signal ? { signal: ctx.signal } : undefined);
        } catch (e) {
          const refused = refusalIn(e);
          throw refused ? new Refused(`${refused.message} (mcp server ${r.url})`, refused.status) : e;
        }
        clients.push(client);
        const listed = await client.listTools(undefined, ctx.signal ? { signal: ctx.signal } : undefined);
        for (const t of listed.tools) {
          if (r.only && !r.only.includes(t.name)) continue;
          add({
            source: 'mcp',
            spec: { type: 'function', function: { name: t.name, ...(t.description ? { description: t.description } : {}), parameters: t.inputSchema as Record<string, unknown> } },
            async call(args) {
              const res = await client.callTool({ name: t.name, arguments: args }, undefined, ctx.signal ? { signal: ctx.signal } : undefined);
              const text = (res.content as Array<{ type: string; text?: string }>).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
              return { ok: res.isError !== true, text, data: res.structuredContent ?? text };
            },
          });
        }
      }
    } catch (e) {
      await Promise.allSettled(clients.map((c) => c.close()));
      throw e;
    }
  }
  return { tools, close: async () => { await Promise.allSettled(clients.map((c) => c.close())); } };
}

/** The dialer's refusal somewhere in an error's causes (fetch wraps it: TypeError "fetch failed"). */
function refusalIn(e: unknown): Refused | undefined {
  for (let c = e, depth = 0; c && depth < 5; c = (c as { cause?: unknown }).cause, depth++) if (c instanceof Refused) return c;
  return undefined;
}

/** The MCP client's fetch: the dialer's, or in a test case its recordings (runtime/testing/stand-ins.ts). */
function fetchFor(ctx: ActionContext): typeof fetch {
  const replay = ctx.services.standIns?.dispatcher;
  if (!replay) return dialerFetch;
  return ((url: string | URL, init?: RequestInit) => fetch(url, { ...init, dispatcher: replay } as unknown as RequestInit)) as typeof fetch;
}
