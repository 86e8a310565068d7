// A config valid against the schema → ConfigIR, the input of both code generation and the interpreter.
import type { ConfigIR, McpServerIR } from '../../runtime/config-ir.ts';
import { BUILT_KINDS } from '../../runtime/actions/kinds.ts';
import type { Config } from '../schema/config-types.ts';
import type { Path } from './error.ts';
import { lowerInterface } from './interface.ts';
import { internalTargets } from './routing.ts';
import { lowerNetwork } from './network.ts';
import { configNeeds } from './needs.ts';

export function lowerConfig(name: string, file: string, config: Config, lineOf: (p: Path) => number): ConfigIR {
  const supported = new Set<string>(BUILT_KINDS);
  const features = { compress: true, decompress: true, parse_xlsx: true, parse_pdf: true, ...config.features };
  const internal = internalTargets(config as unknown as Record<string, unknown>);
  const interfaces = Object.entries(config.interfaces).map(([n, i]) => lowerInterface(n, i ?? {}, { lineOf, supported, features, databases: config.databases ?? {}, internal }));
  const network = lowerNetwork(config.network, ['network']);
  const ir: ConfigIR = { name, file, interfaces, settings: { features, ...(network ? { network } : {}) } };
  const onError = config.on_error;
  if (config.expose_metrics === true) ir.exposeMetrics = true;
  const needs = configNeeds(interfaces);
  if (needs.length) ir.needs = needs;
  const servers = config.mcp_servers as Record<string, McpServerIR> | undefined;
  if (servers && Object.keys(servers).length) ir.mcpServers = servers;
  if (onError) {
    ir.onError = {
      interface: onError.interface,
      maxPerMinute: onError.max_per_minute ?? 12,
      ...(onError.status ? { status: onError.status } : {}),
    };
  }
  return ir;
}
