// One `upgrade` listener per HTTP server, routing by path (WebSocket interfaces, MQTT over
// WebSocket): several ws servers on one port need `noServer` and a router (the ws docs' pattern).
// Every upgrade passes the server's inbound gate (runtime/inbound.ts) before its handler runs, as
// the surface its route names; a server without a gate refuses every upgrade.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { gateOf, presentedOf, type GateOptions, type Surface } from '../inbound.ts';

export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer, url: URL, identity: unknown) => void;

export interface UpgradeRoute {
  /** A name for the route (the enumeration test lists them). */
  name: string;
  match: (path: string) => boolean;
  /** The surface the gate checks; undefined for a path the route does not serve (then the
   *  process-wide network policy only, and the handler answers 404). */
  surface: (url: URL) => Surface | undefined;
  gate?: GateOptions;
  handle: UpgradeHandler;
}

const routers = new WeakMap<Server, UpgradeRoute[]>();
const UNKNOWN: Surface = { kind: 'process', name: 'default' };

/** The upgrade routes of a server (for tests that enumerate what a process listens on). */
export const upgradeRoutes = (server: Server): readonly UpgradeRoute[] => routers.get(server) ?? [];

export function onUpgrade(server: Server, route: UpgradeRoute): void {
  let list = routers.get(server);
  if (!list) {
    routers.set(server, (list = []));
    const routes = list;
    server.on('upgrade', async (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      socket.on('error', () => socket.destroy());
      let url: URL;
      try { url = new URL(req.url ?? '/', 'http://localhost'); } catch { return refuse(socket, 400, 'bad request line'); }
      const gate = gateOf(server);
      if (!gate) return refuse(socket, 403, 'no inbound gate on this server');
      const r = routes.find((x) => x.match(url.pathname));
      // A browser cannot set headers on a WebSocket: the upgrade also takes `?access_token=` (RFC 6750 §2.3).
      const token = url.searchParams.get('access_token') ?? undefined;
      const surface = r?.surface(url);
      let v;
      try {
        v = await gate.check(surface ?? UNKNOWN, presentedOf(req, token), surface ? r!.gate : { credential: false });
      } catch { return refuse(socket, 500, 'internal error'); }
      if (!v.ok) {
        // A credential presented and refused is 403 at an upgrade (missing: 401).
        const status = v.status === 401 && v.invalid ? 403 : v.status;
        return refuse(socket, status, status === 403 && v.invalid ? 'the credential is not accepted' : v.message, v.status === 429 && v.retryAfterSec !== undefined ? { 'retry-after': String(v.retryAfterSec) } : {});
      }
      if (!r) return refuse(socket, 404, `no WebSocket endpoint at ${url.pathname}`);
      r.handle(req, socket, head, url, v.identity ?? null);
    });
  }
  list.push(route);
}

/** Refuses at the upgrade with a plain HTTP answer (never accept-then-drop). */
export function refuse(socket: Duplex, status: number, message: string, headers: Record<string, string> = {}): void {
  const reason = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 429: 'Too Many Requests', 500: 'Internal Server Error' }[status] ?? 'Error';
  const body = JSON.stringify({ error: { status, message } });
  const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  socket.end(`HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n${extra}\r\n${body}`);
}
