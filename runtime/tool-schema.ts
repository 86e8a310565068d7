// The input schema an interface offers as a tool (MCP tools, agent tools): its body schema, which
// must be an object schema at the top; `{"type": "object"}` when nothing constrains the body.
import type { InterfacePlan } from './plan.ts';

export function toolInputSchema(i: Pick<InterfacePlan, 'api'>): Record<string, unknown> {
  const body = i.api?.body as Record<string, unknown> | undefined;
  if (!body) return { type: 'object' };
  return body.type === 'object' ? body : { type: 'object', ...body };
}
