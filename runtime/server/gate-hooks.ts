// The inbound gate (runtime/network/inbound-gate.ts) on this server: built once from the settings,
// kept for the HTTP server (runtime/inbound.ts, gateOf: the upgrade router and the MQTT broker find it
// there), and put on every fastify route as its first onRequest hook as the route is registered. A
// route says which surface it is in its config (GatedRoute); one that says nothing is gated like a
// non-public interface, so a route added later is gated by construction. The hook runs before the
// body is read; a route with nothing to check gets no hook at all.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { GatedRoute, GateVerdict, InboundGate, Surface } from '../inbound.ts';
import { setGate } from '../inbound.ts';
import type { Plan } from '../plan.ts';
import { inboundGate } from '../network/inbound-gate.ts';
import { noGeo, type Geo } from '../network/geo.ts';
import { ipList, type IpList } from '../network/ip-list.ts';
import type { RateLimiter } from '../network/rate-limit.ts';
import { credentialsRequired, StartupError, type InboundSettings } from './auth/settings.ts';
import { verifier } from './auth/verify.ts';

export interface NetworkOptions {
  geo?: Geo;
  limiter?: RateLimiter;
  /** SERVICE__TRUSTED_PROXIES: peers whose X-Forwarded-For is believed. */
  trustedProxies?: string;
  now?: () => number;
}

export type Hook = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
type Gate = ReturnType<typeof inboundGate>;

export interface GateExtras {
  /** SERVICE__PUBLIC_METRICS=1, SERVICE__PUBLIC_OPENAPI=1. */
  publicMetrics?: boolean;
  publicOpenapi?: boolean;
}

/** SERVICE__PUBLIC_METRICS and SERVICE__PUBLIC_OPENAPI: `1` opens the surface to any client the
 *  network policy admits, `0` or unset keeps it gated; anything else stops the start. */
export function openSurfaces(env: Record<string, string | undefined>): GateExtras {
  const flag = (name: string) => {
    const v = env[name];
    if (v === undefined || v === '' || v === '0') return false;
    if (v === '1') return true;
    throw new StartupError(`${name}=${v.slice(0, 40)} must be 1 (open) or 0 (gated like an interface)`);
  };
  return { publicMetrics: flag('SERVICE__PUBLIC_METRICS'), publicOpenapi: flag('SERVICE__PUBLIC_OPENAPI') };
}

export function buildGate(plans: readonly Plan[], inbound: InboundSettings, network: NetworkOptions = {}, extras: GateExtras = {}): Gate {
  let trusted: IpList;
  try { trusted = ipList(network.trustedProxies, 'SERVICE__TRUSTED_PROXIES'); } catch (e) { throw new StartupError((e as Error).message); }
  const on = credentialsRequired(inbound);
  try {
    return inboundGate({
      plans, trusted, geo: network.geo ?? noGeo, ...(network.limiter ? { limiter: network.limiter } : {}), ...(network.now ? { now: network.now } : {}),
      ...(on ? { verify: verifier(inbound), verifyOrAdmin: verifier(inbound, inbound.adminToken ? [inbound.adminToken] : []) } : {}),
      ...(extras.publicMetrics ? { publicMetrics: true } : {}), ...(extras.publicOpenapi ? { publicOpenapi: true } : {}),
    });
  } catch (e) { throw new StartupError((e as Error).message); }
}

/** The HTTP answer of a refusal: 401 with WWW-Authenticate, 403, or 429 with Retry-After. */
export function refuseHttp(reply: FastifyReply, v: Exclude<GateVerdict, { ok: true }>): FastifyReply {
  if (v.status === 429 && v.retryAfterSec !== undefined) reply.header('retry-after', String(v.retryAfterSec));
  if (v.status === 401) reply.header('www-authenticate', 'Bearer');
  return reply.code(v.status).send({ error: { status: v.status, message: v.message } });
}

const DEFAULT: Surface = { kind: 'process', name: 'default' };
export const surfaceOfRoute = (config: unknown): Surface => (config as GatedRoute | undefined)?.pipewrightSurface ?? DEFAULT;

/** Whether a route of this surface gets the gate's hook (app.ts: a route without hooks writes its own log line). */
export const gated = (gate: Gate, surface: Surface) => !!gate.checker(surface);

/** Keeps the gate for the server and adds its hook to every route registered from now on. */
export function gateRoutes(app: FastifyInstance, gate: Gate): void {
  setGate(app.server, gate);
  app.addHook('onRoute', (route: RouteOptions) => {
    const check = gate.checker(surfaceOfRoute(route.config));
    if (!check) return;
    const hook: Hook = async (req, reply) => {
      const v = await check({ peer: req.socket.remoteAddress, headers: req.headers });
      return v.ok ? undefined : refuseHttp(reply, v);
    };
    const own = route.onRequest;
    route.onRequest = own ? [hook, ...(Array.isArray(own) ? own : [own])] : [hook];
  });
}

export type { InboundGate };
