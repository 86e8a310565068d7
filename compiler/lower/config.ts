// A validated config → ConfigIR, the input of both code generation and the interpreter.
import type { ConfigIR, McpServerIR } from '../../runtime/config-ir.ts';
import { supportedKinds } from '../../runtime/actions/index.ts';
import { lowerInterface } from './interface.ts';

type Obj = Record<string, unknown>;

export function lowerConfig(name: string, file: string, config: Obj, lineOf: (p: Array<string | number>) => number): ConfigIR {
  const supported = new Set(supportedKinds);
  const features = { compress: true, decompress: true, parse_xlsx: true, parse_pdf: true, ...((config.features as Record<string, boolean>) ?? {}) };
  const interfaces = Object.entries((config.interfaces as Obj) ?? {}).map(([n, i]) => lowerInterface(n, (i ?? {}) as Obj, { lineOf, supported, features }));
  const ir: ConfigIR = { name, file, interfaces, settings: { features } };
  if (config.expose_metrics === true) ir.exposeMetrics = true;
  const servers = config.mcp_servers as Record<string, McpServerIR> | undefined;
  if (servers && Object.keys(servers).length) ir.mcpServers = servers;
  const onError = config.on_error as Obj | undefined;
  if (onError) {
    ir.onError = {
      interface: String(onError.interface),
      maxPerMinute: Number(onError.max_per_minute ?? 12),
      ...(Array.isArray(onError.status) ? { status: onError.status.map(Number) } : {}),
    };
  }
  return ir;
}
