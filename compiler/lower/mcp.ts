// `mcp:` on an interface → McpToolIR, with the spec's defaults filled in (tool name = interface
// name, description = summary or description). A disabled tool is left out of the IR.
import type { McpToolIR } from '../../runtime/config-ir.ts';

type Obj = Record<string, unknown>;

export function lowerMcpTool(name: string, i: Obj): McpToolIR | undefined {
  const m = i.mcp as Obj | undefined;
  if (!m || m.enabled !== true) return undefined;
  const tool: McpToolIR = { toolName: typeof m.tool_name === 'string' ? m.tool_name : name };
  const description = m.description ?? i.summary ?? i.description;
  if (typeof description === 'string') tool.description = description;
  if (typeof m.list_authorizer === 'string') tool.listAuthorizer = m.list_authorizer;
  if (typeof m.server === 'string') tool.server = m.server;
  return tool;
}
