// The HTTP surface: one fastify route per routed interface (compiler/lower/routing.ts), behind the
// inbound credential gate unless the interface is `public: true`.
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerFactory, type HTTPMethods } from 'fastify';
import type { InterfacePlan, Plan } from '../plan.ts';
import { StartupError } from './startup-errors.ts';
import { redactorOf } from '../values/redact.ts';
import type { Environment } from '../scope.ts';
import { linkPlans, systemClock, withCancel, type Services } from '../services.ts';
import { processEnvironment } from '../environment.ts';
import { executeInterface, runnerOf, type RunResult } from '../exec/run.ts';
import { RunStopped } from '../exec/shutdown.ts';
import { runHooks, type RunHooks } from './hooks.ts';
import { registerCaptureRoutes } from '../capture/routes.ts';
import { registerRunRoutes } from './run-routes.ts';
import { registerRunsApi } from './runs-api.ts';
import { registerInspector } from './inspector/routes.ts';
import { adminAuth } from '../admin-auth.ts';
import { registerOpenApiRoutes } from '../contract/routes.ts';
import { registerMcpRoutes } from '../mcp/routes.ts';
import { attachRealtime } from '../realtime/index.ts';
import { unguardedChannels } from '../realtime/guards.ts';
import { registerMetrics } from '../metrics/routes.ts';
import type { WsLimits } from '../realtime/limits.ts';
import { BadRequest, pathOf, requestData } from './request.ts';
import { encodeResponse } from './reply.ts';
import { DIRECT_LINE, type RequestLine, logHandlerError, noteRun, registerRequestLog, requestIds, runIdOf } from './request-log.ts';
import { abortOnDisconnect, runOver } from './cancel.ts';
import { answerStopped, closeConnectionsWhenDraining, noteParked } from './drain.ts';
import { checkAccepts, checkBodySchema, checkBodyType } from './accepts.ts';
import { isStoreUnavailable, STORE_RETRY_AFTER_SECS } from '../store/unavailable.ts';
import type { InboundSettings } from './auth/settings.ts';
import type { GatedRoute, Surface } from '../inbound.ts';
import { registerReady, type Readiness } from './ready.ts';
import { buildGate, gateRoutes, gated, refuseHttp, type GateExtras, type NetworkOptions } from './gate-hooks.ts';

export interface ServerOptions {
  env?: Environment;
  services?: Services;
  /** This process's name in the store (claims, ticks). */
  node?: string;
  /** Request body limit in bytes (default 10 MiB). */
  bodyLimit?: number;
  logger?: boolean;
  /** After-run hooks (error handler, capture); default: the error handler only. */
  hooks?: RunHooks;
  /** SERVICE__ADMIN_TOKEN: turns on the management routes (captures, the runs API, the inspector page). */
  adminToken?: string;
  /** Inbound credentials (runtime/server/auth); default none: interfaces are open. */
  inbound?: InboundSettings;
  /** NetworkPolicy services: geo databases, the rate-limit store, trusted proxies. */
  network?: NetworkOptions;
  /** SERVICE__ORG and SERVICE__ENVIRONMENT: the first two segments of MCP (and WebSocket) routes. */
  org?: string;
  environment?: string;
  /** SERVICE__PUBLIC_METRICS / SERVICE__PUBLIC_OPENAPI: those surfaces take no credential. */
  open?: GateExtras;
  wsLimits?: WsLimits;
  /** SERVICE__METRICS_MAX_SERIES: series per emitted metric (default 1000). */
  maxMetricSeries?: number;
  /** Where operational warnings go (default: stderr). */
  warn?: (message: string) => void;
  /** What GET /_ap/ready checks besides the store (the broker, the drain). */
  readiness?: Omit<Readiness, 'store'>;
  /** The server requests reach this app through (a reload's generation: runtime/server/host.ts). */
  serverFactory?: FastifyServerFactory;
}

/** Defaults of SERVICE__ORG and SERVICE__ENVIRONMENT. */
export const DEFAULT_ORG = 'local';
export const DEFAULT_ENVIRONMENT = 'dev';

export function buildApp(plans: Plan[], o: ServerOptions = {}): FastifyInstance {
  const env = o.env ?? processEnvironment();
  // The redactor made before the first run: its secrets are what marks a credential built from one
  // (values/derived-secrets.ts) for redaction.
  redactorOf(env);
  const services: Services = o.services ?? { clock: systemClock };
  linkPlans(services, plans, runnerOf(env, services));
  const warn = o.warn ?? ((m: string) => process.stderr.write(`pipewright: ${m}\n`));
  const hooks = o.hooks ?? runHooks({ env, services, warn });
  let lines: RequestLine | undefined;
  const app = Fastify({
    logger: o.logger ?? false, ...requestIds(() => env.uuid()), bodyLimit: o.bodyLimit ?? 10 * 1024 * 1024, routerOptions: { ignoreTrailingSlash: true },
    // A URL fastify cannot route (a malformed escape, an overlong parameter) is answered as every
    // other refusal is, with a run id and a request line, not with fastify's own body and no line.
    frameworkErrors: (err, req, reply) => answerError(err, req, reply),
    ...(o.serverFactory ? { serverFactory: o.serverFactory } : {}),
  });
  // Bodies are read as text and decoded by us, so a|raw_body| is exact and the decoding is shared.
  // Also named for application/json: fastify caches the parser it finds for a content type, but not
  // the catch-all, which cost every JSON request another parse of its content type (~0.4 µs).
  app.removeAllContentTypeParsers();
  const asText = (_req: unknown, body: string | Buffer, done: (err: null, body: string | Buffer) => void) => done(null, body);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, asText);
  app.addContentTypeParser('*', { parseAs: 'string' }, asText);

  // Before any route: it adds the line's hook to each route as it is registered.
  if (services.log) lines = registerRequestLog(app, services.log, env);
  closeConnectionsWhenDraining(app);
  const inbound: InboundSettings = o.inbound ?? { apiKeys: [], ...(o.adminToken ? { adminToken: o.adminToken } : {}) };
  // The one inbound gate: network policy, then credentials, on every route registered from here on
  // (gate-hooks.ts), every WebSocket upgrade and frame, MCP tool call and MQTT client (they find it
  // through the server: runtime/inbound.ts).
  const unguarded = unguardedChannels(plans);
  if (unguarded) throw new StartupError(unguarded);
  const gate = buildGate(plans, inbound, o.network, o.open);
  gateRoutes(app, gate);
  app.get('/_ap/health', { config: { pipewrightSurface: { kind: 'process', name: 'health' } } satisfies GatedRoute }, async () => ({ ok: true }));
  registerReady(app, { store: services.store, ...o.readiness });
  registerOpenApiRoutes(app, plans, { apiKey: inbound.apiKeys.length > 0, jwt: !!(inbound.jwtSecret || inbound.jwksUrl) });
  registerMetrics(app, plans, services, o.maxMetricSeries);
  attachRealtime(app, plans, {
    org: o.org ?? DEFAULT_ORG, environment: o.environment ?? DEFAULT_ENVIRONMENT, env, services, afterRun: (p, i, r) => hooks.afterRun(p, i, r),
    ...(o.wsLimits ? { wsLimits: o.wsLimits } : {}), warn,
  });
  registerMcpRoutes(app, plans, { org: o.org ?? DEFAULT_ORG, environment: o.environment ?? DEFAULT_ENVIRONMENT, env, services, afterRun: (p, i, r) => hooks.afterRun(p, i, r) });
  const admin = inbound.adminToken ? adminAuth(inbound.adminToken) : undefined;
  if (services.store) registerRunRoutes(app, { plans, store: services.store, env, services, node: o.node ?? 'local', log: warn, hooks, ...(admin ? { admin } : {}) });
  if (services.store && inbound.adminToken) {
    registerCaptureRoutes(app, { store: services.store, plans, runOpts: { env, services }, adminToken: inbound.adminToken, afterRun: (p, i, r) => hooks.afterRun(p, i, r) });
    registerRunsApi(app, { store: services.store, plans, env, services, adminToken: inbound.adminToken, afterRun: (p, i, r) => hooks.afterRun(p, i, r) });
    registerInspector(app);
  }
  const seen = new Map<string, string>();
  for (const plan of plans) {
    for (const i of plan.interfaces) {
      if (!i.routed) continue;
      const methods = i.method.split(',').map((m) => m.trim()) as HTTPMethods[];
      for (const m of methods) {
        const key = `${m} ${i.route}`;
        if (seen.has(key)) throw new StartupError(`route ${key} of ${plan.name}.${i.name} is already served by ${seen.get(key)}`);
        seen.set(key, `${plan.name}.${i.name}`);
      }
      // The gate's hook (network policy first, then credentials: both before the body is read) is
      // added by gateRoutes. Without it (it may answer instead of the handler) the handler writes the line.
      const surface: Surface = { kind: 'interface', plan, iface: i };
      const direct = lines && !gated(gate, surface) ? lines : undefined;
      // Not async, and it returns nothing: the run's promise is mapped once, and the reply is sent
      // from that mapping (an async handler cost a suspension and a resumption, a returned promise
      // fastify's own then, with its two closures and its turn, on every request). A throw before the
      // run starts is fastify's to answer; an error after it is handed to fastify as a returned
      // promise's rejection would be (reply.send of the error: the error handler, answerError).
      // `check` refuses what the router would (compiler/load/route-syntax.ts); what only shows when
      // configs are served together (another's /metrics, the MCP route of SERVICE__ORG/ENVIRONMENT)
      // stops the start with one line.
      routeOrRefuse(plan, i, () => app.route({ method: methods, url: i.route, config: { pipewrightSurface: surface, ...(direct ? DIRECT_LINE : {}) }, handler: (req, reply) => {
        checkAccepts(i, req);
        noteRun(req, plan, i);
        const data = requestData(req); // a body it cannot decode is a 400, before any run starts
        checkBodyType(i, data.body); // so is one of another JSON type than `accepts` declares
        checkBodySchema(i, data.body); // and one that breaks `accepts.schema`
        const cancel = abortOnDisconnect(req);
        const answered = (result: RunResult) => {
          try {
            runOver(req, cancel);
            noteParked(app, plan, i, result);
            noteRun(req, plan, i, result);
            const enc = encodeResponse(result.response, i.output);
            if (enc.bodyJson !== undefined) result.bodyJson = enc.bodyJson;
            if (lines) result.requestLine = true;
            hooks.afterRun(plan, i, result);
            reply.code(enc.status).headers(enc.headers).header('x-run-id', result.state.id).send(enc.payload);
            direct?.(req, reply);
          } catch (e) { failed(reply, e); }
        };
        const stopped = (e: unknown) => {
          try {
            runOver(req, cancel);
            if (!(e instanceof RunStopped)) return failed(reply, e);
            answerStopped(reply, plan, i, e);
            direct?.(req, reply);
          } catch (e2) { failed(reply, e2); }
        };
        // The request's id (env.uuid, through requestIds) names its run too: one id per request.
        void executeInterface(plan, i, data, { trigger: 'http', env, services: withCancel(services, cancel), runId: req.id }).then(answered, stopped);
      } }));
    }
  }
  // A path no route serves: a denied address is still refused (403/429) rather than told what is not there.
  const unrouted = gate.checker({ kind: 'process', name: 'default' });
  const notFound = (req: FastifyRequest, reply: FastifyReply) => {
    reply.code(404).header('x-run-id', runIdOf(req)).send({ error: { status: 404, message: `no interface at ${req.method} ${pathOf(req.url)}` } });
    lines?.(req, reply);
  };
  app.setNotFoundHandler(!gate.hasPolicy({ kind: 'process', name: 'default' }) || !unrouted ? notFound : async (req, reply) => {
    const v = await unrouted({ peer: req.socket.remoteAddress, headers: req.headers }, { credential: false });
    if (v.ok) return notFound(req, reply);
    refuseHttp(reply.header('x-run-id', runIdOf(req)), v);
    lines?.(req, reply);
  });
  app.setErrorHandler((err: Error, req, reply) => answerError(err, req, reply));
  app.decorate('errorHandlers', hooks.errorHandlers);
  return app;

  /** Every error answer, the handlers' and fastify's own (a URL it cannot route): a 4xx with its
   *  message or "internal error" (its stack logged), the run id, and the request's line. */
  function answerError(err: Error, req: FastifyRequest, reply: FastifyReply): void {
    // The durable store out of reach is not a bug: 503 and when to come back (docs/decisions.md, "Outages: the durable store and the MQTT broker").
    // (An error that already says it is the client's, a 4xx, stays one.)
    const away = !(err instanceof BadRequest) && ((err as { statusCode?: number }).statusCode ?? 500) >= 500 && isStoreUnavailable(err);
    const status = away ? 503 : err instanceof BadRequest ? err.status : (err as { statusCode?: number }).statusCode ?? 500;
    const message = away ? 'the run store is unavailable: try again shortly' : status < 500 ? err.message : 'internal error';
    const violations = err instanceof BadRequest ? err.violations : undefined;
    logHandlerError(services.log, req, err, status);
    if (away) reply.header('retry-after', String(STORE_RETRY_AFTER_SECS));
    reply.code(status).header('x-run-id', runIdOf(req)).send({ error: { status, message, ...(violations ? { violations } : {}) } });
    // A run cancelled by its client's disconnect (499) has its line from the abort hook.
    if (status !== 499) lines?.(req, reply);
  }
}

/** An error after the handler returned, answered as fastify answers a rejected handler promise:
 *  reply.send of an Error runs the error handler (a value thrown that is no Error is wrapped in one);
 *  a reply already sent is left as it is. */
function failed(reply: FastifyReply, e: unknown): void {
  if (reply.sent) return;
  reply.send(e instanceof Error ? e : new Error(String(e)));
}

/** Registers an interface's route; the router's refusal (a clash with a built-in route) is a
 *  one-line start-up error naming the interface, not a stack. */
function routeOrRefuse(plan: Plan, i: InterfacePlan, register: () => unknown): void {
  try { register(); } catch (e) {
    throw new StartupError(`route ${i.method} ${i.route} of ${plan.name}.${i.name} cannot be served: ${(e as Error).message}`);
  }
}
