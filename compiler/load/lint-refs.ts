// Names that must point at something declared elsewhere in the config: interfaces, MCP servers, actions.
import { didYouMean } from '../source/suggest.ts';
import { isObj, type InterfaceSite, forEachAction } from './walk.ts';
import type { ConfigPath } from '../source/yaml.ts';
import type { Report } from './report.ts';

export function lintRefs(config: Record<string, unknown>, ifaces: InterfaceSite[], report: Report): void {
  const ifaceNames = ifaces.map((i) => i.name);
  const mustBeInterface = (value: unknown, path: ConfigPath, what: string) => {
    if (typeof value !== 'string' || ifaceNames.includes(value)) return;
    report('error', path, `${what} names unknown interface "${value}"`, didYouMean(value, ifaceNames), 'value');
  };

  if (isObj(config.on_error)) mustBeInterface(config.on_error.interface, ['on_error', 'interface'], 'on_error.interface');
  const servers = isObj(config.mcp_servers) ? Object.keys(config.mcp_servers) : [];
  lintMcpServers(config, ifaces, report);
  lintChannelGuards(ifaces, report);
  for (const site of ifaces) {
    const { iface, path, name } = site;
    mustBeInterface(iface.subscribe_authorizer, [...path, 'subscribe_authorizer'], `subscribe_authorizer of interface "${name}"`);
    if (isObj(iface.mcp)) {
      mustBeInterface(iface.mcp.list_authorizer, [...path, 'mcp', 'list_authorizer'], `mcp.list_authorizer of interface "${name}"`);
      const server = iface.mcp.server;
      if (typeof server === 'string' && !servers.includes(server)) {
        report('error', [...path, 'mcp', 'server'], `mcp.server of interface "${name}" names undeclared MCP server "${server}"`, didYouMean(server, servers) ?? 'declare it under mcp_servers:', 'value');
      }
    }
    const inherit = isObj(iface.response) ? iface.response.http_code_inherit_error : undefined;
    if (Array.isArray(inherit)) {
      inherit.forEach((a, i) => {
        if (typeof a === 'string' && !site.allNames.has(a)) {
          report('error', [...path, 'response', 'http_code_inherit_error', i], `response.http_code_inherit_error of interface "${name}" names unknown action "${a}"`, didYouMean(a, site.allNames), 'value');
        }
      });
    }
    forEachAction(site, (a) => {
      const agent = isObj(a.action.agent) ? a.action.agent : undefined;
      const tools = agent?.tools;
      if (Array.isArray(tools)) tools.forEach((t, i) => mustBeInterface(t, [...a.path, 'agent', 'tools', i], `agent.tools of action "${a.name}"`));
      // Only local tools receive them: without one they would be ignored.
      if (agent?.tool_headers !== undefined && !(Array.isArray(tools) && tools.length)) {
        report('error', [...a.path, 'agent', 'tool_headers'], `agent.tool_headers of action "${a.name}" reaches no tool: it names no interface in agent.tools`, 'name the interfaces in agent.tools, or remove tool_headers (remote MCP servers take mcp[].headers)', 'key');
      }
    });
  }
}

/** At most one default MCP server, and one tool per name on each server. */
function lintMcpServers(config: Record<string, unknown>, ifaces: InterfaceSite[], report: Report): void {
  const declared = isObj(config.mcp_servers) ? Object.entries(config.mcp_servers) : [];
  const defaults = declared.filter(([, s]) => isObj(s) && s.default === true).map(([id]) => id);
  for (const id of defaults.slice(1)) {
    report('warning', ['mcp_servers', id, 'default'], `MCP server "${id}" is a second default; "${defaults[0]}" serves the bare route (the first declared wins)`, 'keep default: true on one server only');
  }
  const seen = new Map<string, string>();
  for (const { iface, path, name } of ifaces) {
    if (!isObj(iface.mcp) || iface.mcp.enabled !== true) continue;
    const tool = typeof iface.mcp.tool_name === 'string' ? iface.mcp.tool_name : name;
    const server = typeof iface.mcp.server === 'string' ? iface.mcp.server : '';
    // The default server's tools are on the bare route too, beside the tools that name no server.
    const keys = [server, ...(server !== '' && server === defaults[0] ? [''] : [])].map((s) => `${s}\u0000${tool}`);
    const other = keys.map((k) => seen.get(k)).find((o) => o !== undefined);
    if (other) report('error', [...path, 'mcp'], `MCP tool "${tool}" of interface "${name}" is already offered by interface "${other}" on the same server`, 'give one of them another mcp.tool_name');
    else for (const k of keys) seen.set(k, name);
  }
}

/** Channels are shared by every WebSocket interface of the service: a channel guarded by a
 *  subscribe_authorizer on one interface would be readable through another without one. So once
 *  any WebSocket interface has an authorizer, every one must (the same one will do). */
function lintChannelGuards(ifaces: InterfaceSite[], report: Report): void {
  const ws = ifaces.filter(({ iface }) => iface.ws !== undefined && iface.ws !== false);
  const guarded = ws.find(({ iface }) => typeof iface.subscribe_authorizer === 'string');
  if (!guarded) return;
  const authorizer = guarded.iface.subscribe_authorizer as string;
  for (const { iface, path, name } of ws) {
    if (iface.subscribe_authorizer !== undefined) continue;
    report('error', [...path, 'ws'], `WebSocket interface "${name}" has no subscribe_authorizer, but interface "${guarded.name}" guards its channels with "${authorizer}": channels are shared, so "${name}" would subscribe to them unchecked`,
      `add \`subscribe_authorizer: ${authorizer}\` (or an authorizer of its own) to interface "${name}"`, 'key');
  }
}
