// The one inbound gate (contract: runtime/inbound.ts). Given a surface and what a client presents,
// it answers allow, 401, 403 or 429 (+ Retry-After): the network policy first (address, country,
// ASN, then rate limits), then the credential, for every listener of the process. An interface's
// surface takes its config-wide and its own `network:` and its `public`; a process-wide surface
// takes every loaded config's config-wide `network:` and the credential rule of RULES below.
import type { InterfacePlan, Plan } from '../plan.ts';
import type { GateOptions, GateVerdict, InboundGate, Presented, ProcessSurface, Surface } from '../inbound.ts';
import { clientIp } from './client-ip.ts';
import { noGeo, type Geo } from './geo.ts';
import type { IpList } from './ip-list.ts';
import { decide, layers, missingDatabase, type Layer } from './policy.ts';
import { memoryLimiter, type RateLimiter } from './rate-limit.ts';

export type CredentialCheck = (headers: Record<string, string | string[] | undefined>) => Promise<'ok' | 'missing' | 'invalid'>;

export interface GateSettings {
  plans: readonly Plan[];
  /** API keys and JWTs (runtime/server/auth/verify.ts); absent: no credential is configured. */
  verify?: CredentialCheck;
  /** The same, also taking SERVICE__ADMIN_TOKEN (run status). */
  verifyOrAdmin?: CredentialCheck;
  trusted: IpList;
  geo?: Geo;
  limiter?: RateLimiter;
  now?: () => number;
  /** SERVICE__PUBLIC_METRICS=1, SERVICE__PUBLIC_OPENAPI=1: those surfaces take no credential. */
  publicMetrics?: boolean;
  publicOpenapi?: boolean;
}

/** How each process-wide surface is credentialed. `own`: the route checks a credential of its own
 *  (the resume token, the admin token); `policy`: the network policy only (static files holding no
 *  data); `open`: nothing, not even the network policy. */
type Rule = 'credential' | 'credential-or-admin' | 'own' | 'policy' | 'open';
export const RULES: Record<ProcessSurface, Rule> = {
  default: 'credential', // any route that names no surface: gated like a non-public interface
  health: 'open', // load balancers' probe; answers {"ok":true} and nothing else
  ready: 'open', // the readiness probe; answers which of three fixed words is not ready, nothing more
  metrics: 'credential', // unless SERVICE__PUBLIC_METRICS=1
  openapi: 'credential', // unless SERVICE__PUBLIC_OPENAPI=1
  runs: 'credential-or-admin',
  resume: 'own', // the resume token is the only credential of a waiting run
  captures: 'own', // SERVICE__ADMIN_TOKEN
  admin: 'own', // SERVICE__ADMIN_TOKEN: the runs API's list, cancel and re-run (runtime/server/runs-api.ts)
  inspector: 'policy', // the inspector page's static files (only with SERVICE__ADMIN_TOKEN); its data calls are `admin`
  mcp: 'credential', // unless every tool of the server is public; each tools/call then gates its interface
  mqtt: 'credential', // the MQTT password (an API key or JWT)
};

const OK: GateVerdict = { ok: true };
const AUTHENTICATED: GateVerdict = { ok: true, identity: { authenticated: true } };
const MISSING: GateVerdict = { ok: false, status: 401, message: 'a credential is required (Authorization: Bearer <API key or JWT>, or X-API-Key)' };
const INVALID: GateVerdict = { ok: false, status: 401, message: 'a credential is not accepted', invalid: true };
const unreachable = (name: string): GateVerdict => ({ ok: false, status: 403, message: `interface ${name} is not public and no credential is configured (SERVICE__API_KEYS, SERVICE__JWT_SECRET, SERVICE__JWKS_URL): it cannot be reached` });

type Check = (client: Presented, o?: GateOptions) => Promise<GateVerdict>;

/** Builds the gate; a policy that needs a geo database that is not there throws (a start-up error). */
export function inboundGate(s: GateSettings): InboundGate & { checker(surface: Surface): Check | undefined } {
  const geo = s.geo ?? noGeo;
  const limiter = s.limiter ?? memoryLimiter();
  const now = s.now ?? Date.now;
  const processLayers = s.plans.flatMap((p) => layers({ name: p.name, ...(p.settings?.network ? { network: p.settings.network } : {}) }, { name: '' }) ?? []);
  const ifaceLayers = new WeakMap<InterfacePlan, Layer[] | null>();
  const layersOfIface = (plan: Plan, i: InterfacePlan): Layer[] | undefined => {
    let ls = ifaceLayers.get(i);
    if (ls === undefined) ifaceLayers.set(i, (ls = layers({ name: plan.name, ...(plan.settings?.network ? { network: plan.settings.network } : {}) }, i) ?? null));
    return ls ?? undefined;
  };
  // Refused at start rather than never matching: every interface (whatever its trigger) and the process.
  for (const p of s.plans) for (const i of p.interfaces) {
    const ls = layersOfIface(p, i);
    const missing = ls && missingDatabase(ls, geo);
    if (missing) throw new Error(`${missing} (interface ${p.name}.${i.name})`);
  }
  const layersOf = (surface: Surface): Layer[] | undefined => {
    if (surface.kind === 'interface') return layersOfIface(surface.plan, surface.iface);
    return RULES[surface.name] === 'open' || !processLayers.length ? undefined : processLayers;
  };
  const verifierOf = (surface: Surface): CredentialCheck | undefined => {
    if (surface.kind === 'interface') return surface.iface.public ? undefined : s.verify;
    if (surface.public) return undefined;
    if (surface.name === 'metrics' && s.publicMetrics) return undefined;
    if (surface.name === 'openapi' && s.publicOpenapi) return undefined;
    switch (RULES[surface.name]) {
      case 'credential': return s.verify;
      case 'credential-or-admin': return s.verify && (s.verifyOrAdmin ?? s.verify);
      default: return undefined;
    }
  };

  const make = (surface: Surface): Check | undefined => {
    const ls = layersOf(surface);
    const verify = verifierOf(surface);
    if (surface.kind === 'interface' && surface.via === 'ws' && !surface.iface.public && !s.verify) {
      const refused = unreachable(surface.iface.name);
      return async () => refused;
    }
    if (!ls && !verify) return undefined;
    // An MCP request spends its budget per JSON-RPC message (a tools/call on its interface's), not here.
    const spends = !(surface.kind === 'process' && surface.name === 'mcp');
    return async (client, o) => {
      if (ls) {
        const ip = clientIp(client.peer, client.headers['x-forwarded-for'], s.trusted);
        const header = (name: string) => { const v = client.headers[name.toLowerCase()]; return Array.isArray(v) ? v[0] : v; };
        const d = await decide(ls, ip, header, { geo, limiter, now }, o?.spend ?? spends);
        if (!d.ok) return d.status === 429 ? { ok: false, status: 429, message: d.message, retryAfterSec: d.retryAfterSec } : { ok: false, status: 403, message: d.message };
      }
      if (!verify || o?.credential === false) return OK;
      const headers = client.token && !client.headers.authorization ? { ...client.headers, authorization: `Bearer ${client.token}` } : client.headers;
      const v = await verify(headers);
      return v === 'ok' ? AUTHENTICATED : v === 'missing' ? MISSING : INVALID;
    };
  };
  // One checker per surface: made once, so a route's hook does no lookup per request.
  const byIface = new WeakMap<InterfacePlan, Check | null>();
  const byWsIface = new WeakMap<InterfacePlan, Check | null>();
  const byName = new Map<string, Check | null>();
  const checker = (surface: Surface): Check | undefined => {
    if (surface.kind === 'interface') {
      const cache = surface.via === 'ws' ? byWsIface : byIface;
      let c = cache.get(surface.iface);
      if (c === undefined) cache.set(surface.iface, (c = make(surface) ?? null));
      return c ?? undefined;
    }
    const key = `${surface.name}${surface.public ? '+public' : ''}`;
    let c = byName.get(key);
    if (c === undefined) byName.set(key, (c = make(surface) ?? null));
    return c ?? undefined;
  };
  return {
    checker,
    check: (surface, client, o) => checker(surface)?.(client, o) ?? Promise.resolve(OK),
    needsCredential: (surface) => !!verifierOf(surface) || (surface.kind === 'interface' && surface.via === 'ws' && !surface.iface.public),
    hasPolicy: (surface) => !!layersOf(surface),
    credentialsConfigured: !!s.verify,
  };
}
