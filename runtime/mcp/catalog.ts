// Which MCP servers a set of plans exposes and which tools each serves. The bare route ('') is the
// default server: it adopts every tool that names no server, plus the tools of the server declared
// `default: true` (the first by config name when several configs declare one).
import type { McpServerIR } from '../config-ir.ts';
import type { InterfacePlan, Plan } from '../plan.ts';
import { toolInputSchema } from '../tool-schema.ts';

export interface McpToolEntry {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  plan: Plan;
  iface: InterfacePlan;
  authorizer?: InterfacePlan;
}

export interface McpServerEntry {
  /** '' for the bare (default) route, else the server id. */
  id: string;
  identity: McpServerIR & { name: string };
  tools: Map<string, McpToolEntry>;
}

export function mcpCatalog(plans: readonly Plan[]): Map<string, McpServerEntry> {
  const byName = [...plans].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const identities = new Map<string, McpServerIR & { name: string }>();
  let defaultId: string | undefined;
  for (const p of byName) {
    for (const [id, s] of Object.entries(p.mcpServers ?? {})) {
      if (!identities.has(id)) identities.set(id, { ...s, name: id });
      if (s.default && defaultId === undefined) defaultId = id;
    }
  }
  const servers = new Map<string, McpServerEntry>();
  const serverOf = (id: string): McpServerEntry => {
    let s = servers.get(id);
    if (!s) {
      const identity = id === '' ? (defaultId !== undefined ? identities.get(defaultId)! : { name: byName.map((p) => p.name).join('+') || 'pipewright' }) : identities.get(id) ?? { name: id };
      servers.set(id, (s = { id, identity, tools: new Map() }));
    }
    return s;
  };
  for (const p of byName) {
    for (const i of p.interfaces) {
      if (!i.mcp) continue;
      const authorizer = i.mcp.listAuthorizer ? p.interfaces.find((x) => x.name === i.mcp!.listAuthorizer) : undefined;
      const tool: McpToolEntry = {
        name: i.mcp.toolName,
        ...(i.mcp.description !== undefined ? { description: i.mcp.description } : {}),
        inputSchema: toolInputSchema(i),
        plan: p, iface: i,
        ...(authorizer ? { authorizer } : {}),
      };
      const targets = i.mcp.server === undefined ? [''] : i.mcp.server === defaultId ? [i.mcp.server, ''] : [i.mcp.server];
      for (const t of targets) {
        const s = serverOf(t);
        // The first tool of a name wins (configs in name order); `check` reports duplicates in one config.
        if (!s.tools.has(tool.name)) s.tools.set(tool.name, tool);
      }
    }
  }
  return servers;
}

