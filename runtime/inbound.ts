// The inbound gate's contract: every listener of the process (HTTP routes, WebSocket upgrades and
// frames, MCP tool calls, the MQTT broker) asks one gate (runtime/network/inbound-gate.ts, built by
// runtime/server/app.ts) whether a client may go on: network policy first, then its credential.
// The gate is kept per HTTP server, so a listener on that server finds it without being handed it,
// and one that finds none refuses (fail closed).
import type { InterfacePlan, Plan } from './plan.ts';

/** A surface that belongs to no one interface. Its network policy is every loaded config's
 *  config-wide `network:`; its credential rule is the gate's table (inbound-gate.ts, RULES). */
export type ProcessSurface = 'default' | 'health' | 'ready' | 'metrics' | 'openapi' | 'runs' | 'resume' | 'captures' | 'admin' | 'inspector' | 'mcp' | 'mqtt';

export type Surface =
  /** `via: 'ws'`: a WebSocket interface, which no socket reaches when it is not `public` and no
   *  credential is configured (end-user connections present an API key or a JWT). */
  | { kind: 'interface'; plan: Plan; iface: InterfacePlan; via?: 'ws' }
  | { kind: 'process'; name: ProcessSurface; /** MCP: every tool of the server is `public` */ public?: boolean };

/** What a client presents: its socket peer and headers (X-Forwarded-For believed from trusted
 *  proxies only), and a credential carried outside the headers (`?access_token=`, an MQTT password). */
export interface Presented {
  peer: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  token?: string;
}

export type GateVerdict =
  | { ok: true; identity?: unknown }
  | { ok: false; status: 401 | 403 | 429; message: string; retryAfterSec?: number; /** 401 for a credential that was presented and refused */ invalid?: true };

export interface GateOptions {
  /** false: address, country and ASN rules only, no rate-limit budget spent (a WebSocket upgrade,
   *  whose frames are each counted). Default true. */
  spend?: boolean;
  /** false: the network policy only (a listener whose credential comes later: MQTT's CONNECT). */
  credential?: boolean;
}

export interface InboundGate {
  check(surface: Surface, client: Presented, o?: GateOptions): Promise<GateVerdict>;
  /** Whether the surface asks for a credential at all (none configured: no). */
  needsCredential(surface: Surface): boolean;
  /** Whether the surface has a network policy to evaluate. */
  hasPolicy(surface: Surface): boolean;
  /** Whether any credential (API key, JWT) is configured. */
  readonly credentialsConfigured: boolean;
}

/** Route config key: which surface a fastify route is (absent: 'default', gated like an interface). */
export interface GatedRoute { pipewrightSurface?: Surface }

const gates = new WeakMap<object, InboundGate>();
export const setGate = (server: object, gate: InboundGate) => { gates.set(server, gate); };
export const gateOf = (server: object): InboundGate | undefined => gates.get(server);

/** The peer and headers of a node request (an upgrade, a `/mqtt` connection). */
export const presentedOf = (req: { socket?: { remoteAddress?: string | undefined }; headers: Record<string, string | string[] | undefined> }, token?: string): Presented =>
  ({ peer: req.socket?.remoteAddress, headers: req.headers, ...(token ? { token } : {}) });
