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
      const tools = isObj(a.action.agent) ? a.action.agent.tools : undefined;
      if (Array.isArray(tools)) tools.forEach((t, i) => mustBeInterface(t, [...a.path, 'agent', 'tools', i], `agent.tools of action "${a.name}"`));
    });
  }
}
