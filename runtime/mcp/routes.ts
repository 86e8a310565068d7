// MCP over Streamable HTTP (stateless: a fresh SDK server and transport per request, as the SDK
// documents for horizontally scaled servers): `/<org>/<env>/mcp` for the default server and
// `/<org>/<env>/mcp/<server>` for each named one. The SDK is loaded only when a config has tools.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Plan, InterfacePlan } from '../plan.ts';
import type { Environment } from '../scope.ts';
import type { Services } from '../services.ts';
import type { RunResult } from '../exec/run.ts';
import { stringMap } from '../values/string-map.ts';
import { compileBodySchema } from '../contract/schema-compile.ts';
import type { BodyCheck, Violation } from '../violations.ts';
import { mcpCatalog, type McpServerEntry, type McpToolEntry } from './catalog.ts';
import { runForMcp, toolResult, type McpRunContext } from './run-tool.ts';
import { runSucceeded } from '../exec/run.ts';
import { gateOf, presentedOf, type GatedRoute, type GateVerdict, type InboundGate, type Surface } from '../inbound.ts';
import { MAX_JSON_DEPTH, parseJsonBounded, TooDeepError } from '../values/json-depth.ts';

export interface McpRouteOptions {
  org: string;
  environment: string;
  env: Environment;
  services: Services;
  afterRun?: (plan: Plan, i: InterfacePlan, r: RunResult) => void;
}

export const mcpPath = (org: string, environment: string, server = '') =>
  `/${encodeURIComponent(org)}/${encodeURIComponent(environment)}/mcp${server ? `/${encodeURIComponent(server)}` : ''}`;

export function registerMcpRoutes(app: FastifyInstance, plans: readonly Plan[], o: McpRouteOptions): void {
  const servers = mcpCatalog(plans);
  if (!servers.size) return;
  const gate = gateOf(app.server);
  if (!gate) throw new Error('MCP routes need the inbound gate (runtime/server/gate-hooks.ts) on their server');
  // The input schema is checked as `accepts.schema` is (the one ajv set-up: its formats, patterns on
  // RE2, the first violation), and a violation is told in the same shape.
  const validators = new Map<McpToolEntry, BodyCheck>();
  const validatorOf = (t: McpToolEntry) => {
    let v = validators.get(t);
    if (!v) validators.set(t, (v = compileBodySchema(t.inputSchema)));
    return v;
  };
  for (const server of servers.values()) {
    const url = mcpPath(o.org, o.environment, server.id);
    // The route asks a credential unless every tool it serves is public; each message then passes
    // the gate again: a tools/call as the interface it runs (its network policy, its `public`).
    const config: GatedRoute = { pipewrightSurface: { kind: 'process', name: 'mcp', ...([...server.tools.values()].every((t) => t.iface.public) ? { public: true } : {}) } };
    app.post(url, { config }, (req, reply) => handle(server, req, reply, o, validatorOf, gate));
    // Stateless: no server-initiated stream and no session to delete.
    app.route({ method: ['GET', 'DELETE'], url, config, handler: (_req, reply) => reply.code(405).header('allow', 'POST').send(rpcError(-32000, 'method not allowed: MCP here is stateless, POST only')) });
  }
}

type RpcId = string | number | null;
const rpcError = (code: number, message: string, id: RpcId = null, data?: unknown) => ({ jsonrpc: '2.0', error: { code, message, ...(data !== undefined ? { data } : {}) }, id });
const MCP_SURFACE: Surface = { kind: 'process', name: 'mcp' };

/** What each JSON-RPC message asks, checked before the SDK sees it: its params' shape (the SDK
 *  answers -32603 and dumps its validator's error for arguments that are not an object) and the
 *  gate (a tools/call as the interface it runs; anything else on the process-wide budget). */
async function admit(server: McpServerEntry, message: unknown, req: FastifyRequest, gate: InboundGate): Promise<{ status: number; body: unknown; verdict?: GateVerdict } | undefined> {
  for (const m of Array.isArray(message) ? message : [message]) {
    if (m === null || typeof m !== 'object') continue; // the SDK answers malformed messages itself
    const { id: rawId, method, params } = m as { id?: unknown; method?: unknown; params?: unknown };
    const id: RpcId = typeof rawId === 'string' || typeof rawId === 'number' ? rawId : null;
    let surface = MCP_SURFACE;
    if (method === 'tools/call') {
      const p = (params ?? {}) as { name?: unknown; arguments?: unknown };
      if (params === null || typeof params !== 'object' || Array.isArray(params) || typeof p.name !== 'string') return { status: 200, body: rpcError(-32602, 'invalid params: tools/call needs params {"name": "<tool>", "arguments": {…}}', id) };
      if (p.arguments !== undefined && (p.arguments === null || typeof p.arguments !== 'object' || Array.isArray(p.arguments))) {
        return { status: 200, body: rpcError(-32602, `invalid params: "arguments" must be an object, not ${p.arguments === null ? 'null' : Array.isArray(p.arguments) ? 'an array' : `a ${typeof p.arguments}`}`, id) };
      }
      const t = server.tools.get(p.name);
      if (t) surface = { kind: 'interface', plan: t.plan, iface: t.iface };
    }
    const v = await gate.check(surface, presentedOf(req.raw), surface === MCP_SURFACE ? { credential: false } : undefined);
    if (!v.ok) return { status: v.status, body: rpcError(-32001, v.message, id, { status: v.status }), verdict: v };
  }
  return undefined;
}

async function handle(server: McpServerEntry, req: FastifyRequest, reply: FastifyReply, o: McpRouteOptions, validatorOf: (t: McpToolEntry) => BodyCheck, gate: InboundGate) {
  let message: unknown;
  // The same bound as request bodies: a 50,000-level `arguments` would overflow every later walk.
  try { message = parseJsonBounded(String(req.body ?? '')); } catch (e) {
    if (e instanceof TooDeepError) return reply.code(400).send(rpcError(-32602, `invalid params: the request nests deeper than ${MAX_JSON_DEPTH} levels`));
    return reply.code(400).send(rpcError(-32700, 'parse error: the body is not JSON'));
  }
  const refused = await admit(server, message, req, gate);
  if (refused) {
    const v = refused.verdict;
    if (v && !v.ok && v.status === 429 && v.retryAfterSec !== undefined) reply.header('retry-after', String(v.retryAfterSec));
    if (v && !v.ok && v.status === 401) reply.header('www-authenticate', 'Bearer');
    return reply.code(refused.status).send(refused.body);
  }
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
    if (!t || !(await allowed(t))) return { content: [{ type: 'text' as const, text: `unknown tool "${boundedName(call.params.name)}"` }], isError: true };
    const args = call.params.arguments ?? {};
    const violations = validatorOf(t)(args);
    if (violations) return invalidArguments(t, violations);
    return toolResult(await runForMcp(t.plan, t.iface, args, cx));
  });

  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  reply.hijack();
  reply.raw.on('close', () => { void transport.close(); void mcp.close(); });
  await mcp.connect(transport);
  await transport.handleRequest(req.raw, reply.raw, message);
}

/** A tool error for arguments the input schema refuses: the message and `violations` an HTTP
 *  request's body gets from `accepts.schema` (runtime/server/accepts.ts), as structured content. */
function invalidArguments(t: McpToolEntry, violations: Violation[]) {
  const first = violations[0];
  const message = `invalid arguments for "${t.name}"${first ? ` at ${first.path === '' ? 'the arguments' : first.path}: ${first.message}` : ''}`;
  return { content: [{ type: 'text' as const, text: message }], structuredContent: { error: { status: 400, message, violations } }, isError: true };
}

/** A client's tool name as told back: bounded (it is the client's text, of any length). */
const MAX_NAME = 128;
const boundedName = (n: string) => (n.length > MAX_NAME ? `${n.slice(0, MAX_NAME)}…` : n);
