// MCP over Streamable HTTP (stateless: a fresh SDK server and transport per request, as the SDK
// documents for horizontally scaled servers): `/<org>/<env>/mcp` for the default server and
// `/<org>/<env>/mcp/<server>` for each named one. The SDK is loaded only when a config has tools.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Ajv, type ValidateFunction } from 'ajv';
import type { Plan, InterfacePlan } from '../plan.ts';
import type { Environment } from '../scope.ts';
import type { Services } from '../services.ts';
import type { RunResult } from '../exec/run.ts';
import { stringMap } from '../values/string-map.ts';
import { linearRegExpEngine } from '../values/regex.ts';
import { mcpCatalog, type McpServerEntry, type McpToolEntry } from './catalog.ts';
import { runForMcp, toolResult, type McpRunContext } from './run-tool.ts';
import { runSucceeded } from '../exec/run.ts';

export interface McpRouteOptions {
  org: string;
  environment: string;
  env: Environment;
  services: Services;
  afterRun?: (plan: Plan, i: InterfacePlan, r: RunResult) => void;
  /** The inbound credential check (absent: none configured, MCP is open like the interfaces). */
  gate?: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
}

export const mcpPath = (org: string, environment: string, server = '') =>
  `/${encodeURIComponent(org)}/${encodeURIComponent(environment)}/mcp${server ? `/${encodeURIComponent(server)}` : ''}`;

export function registerMcpRoutes(app: FastifyInstance, plans: readonly Plan[], o: McpRouteOptions): void {
  const servers = mcpCatalog(plans);
  if (!servers.size) return;
  // Patterns (from accepts.schema, or a param's `regex`) run on RE2, as every config regex does.
  const ajv = new Ajv({ strict: false, allErrors: true, code: { regExp: linearRegExpEngine } });
  const validators = new Map<McpToolEntry, ValidateFunction>();
  const validatorOf = (t: McpToolEntry) => {
    let v = validators.get(t);
    if (!v) validators.set(t, (v = ajv.compile(t.inputSchema)));
    return v;
  };
  for (const server of servers.values()) {
    const url = mcpPath(o.org, o.environment, server.id);
    app.post(url, { ...(o.gate ? { onRequest: o.gate } : {}) }, (req, reply) => handle(server, req, reply, o, validatorOf));
    // Stateless: no server-initiated stream and no session to delete.
    app.route({ method: ['GET', 'DELETE'], url, handler: (_req, reply) => reply.code(405).header('allow', 'POST').send(rpcError(-32000, 'method not allowed: MCP here is stateless, POST only')) });
  }
}

const rpcError = (code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message }, id: null });

async function handle(server: McpServerEntry, req: FastifyRequest, reply: FastifyReply, o: McpRouteOptions, validatorOf: (t: McpToolEntry) => ValidateFunction) {
  let message: unknown;
  try { message = JSON.parse(String(req.body ?? '')); } catch { return reply.code(400).send(rpcError(-32700, 'parse error: the body is not JSON')); }
  const headers = stringMap(req.headers);
  const cx: McpRunContext = { env: o.env, services: o.services, headers, ...(o.afterRun ? { afterRun: o.afterRun } : {}) };
  const { Server } = await import('@modelcontextprotocol/sdk/server/index.js');
  const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
  const { ListToolsRequestSchema, CallToolRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
  const { name, title, instructions } = server.identity;
  const mcp = new Server({ name, version: '1.0.0', ...(title ? { title } : {}) }, { capabilities: { tools: {} }, ...(instructions ? { instructions } : {}) });

  // A tool whose list_authorizer fails is neither listed nor callable for this client.
  const allowed = async (t: McpToolEntry) => !t.authorizer || runSucceeded(await runForMcp(t.plan, t.authorizer, null, cx));
  mcp.setRequestHandler(ListToolsRequestSchema, async () => {
    const tools = [];
    for (const t of server.tools.values()) {
      if (await allowed(t)) tools.push({ name: t.name, inputSchema: t.inputSchema, ...(t.description !== undefined ? { description: t.description } : {}) });
    }
    return { tools };
  });
  mcp.setRequestHandler(CallToolRequestSchema, async (call) => {
    const t = server.tools.get(call.params.name);
    if (!t || !(await allowed(t))) return { content: [{ type: 'text' as const, text: `unknown tool "${call.params.name}"` }], isError: true };
    const args = call.params.arguments ?? {};
    const validate = validatorOf(t);
    if (!validate(args)) {
      const why = (validate.errors ?? []).map((e) => `${e.instancePath || '(arguments)'} ${e.message}`).join('; ');
      return { content: [{ type: 'text' as const, text: `invalid arguments for "${t.name}": ${why}` }], isError: true };
    }
    return toolResult(await runForMcp(t.plan, t.iface, args, cx));
  });

  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  reply.hijack();
  reply.raw.on('close', () => { void transport.close(); void mcp.close(); });
  await mcp.connect(transport);
  await transport.handleRequest(req.raw, reply.raw, message);
}
