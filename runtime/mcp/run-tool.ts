// Runs an interface for MCP: a tool call (arguments as the body) or a list_authorizer (the client's
// headers forwarded). Both go through the one executor, like every other trigger.
import type { InterfacePlan, Plan } from '../plan.ts';
import type { Environment } from '../scope.ts';
import type { Services } from '../services.ts';
import { executeInterface, runErrorMessage, runSucceeded, type RunResult } from '../exec/run.ts';

export interface McpRunContext {
  env: Environment;
  services: Services;
  /** The MCP request's headers (lower-case names), forwarded to the run. */
  headers: Record<string, string>;
  afterRun?: (plan: Plan, i: InterfacePlan, r: RunResult) => void;
}

export async function runForMcp(plan: Plan, i: InterfacePlan, body: unknown, cx: McpRunContext): Promise<RunResult> {
  const request = { method: 'MCP', path: i.route, params: {}, headers: cx.headers, body, rawBody: body === null ? '' : JSON.stringify(body) };
  const result = await executeInterface(plan, i, request, { trigger: 'mcp', env: cx.env, services: cx.services });
  cx.afterRun?.(plan, i, result);
  return result;
}


/** The tool result: structured content (an object, as MCP requires) plus a text rendering. */
export function toolResult(r: RunResult): { content: Array<{ type: 'text'; text: string }>; structuredContent?: Record<string, unknown>; isError?: boolean } {
  const body = r.response.body;
  if (!runSucceeded(r)) {
    const message = runErrorMessage(r) ?? (typeof body === 'string' ? body : JSON.stringify(body));
    return { content: [{ type: 'text', text: message }], isError: true };
  }
  const text = typeof body === 'string' ? body : JSON.stringify(body ?? null);
  const structured = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : { result: body ?? null };
  return { content: [{ type: 'text', text }], structuredContent: structured };
}
