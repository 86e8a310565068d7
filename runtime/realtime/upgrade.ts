// One `upgrade` listener per HTTP server, routing by path (WebSocket interfaces, MQTT over
// WebSocket): several ws servers on one port need `noServer` and a router (the ws docs' pattern).
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';

export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer, url: URL) => void;

const routers = new WeakMap<Server, Array<{ match: (path: string) => boolean; handle: UpgradeHandler }>>();

export function onUpgrade(server: Server, match: (path: string) => boolean, handle: UpgradeHandler): void {
  let list = routers.get(server);
  if (!list) {
    routers.set(server, (list = []));
    const routes = list;
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      socket.on('error', () => socket.destroy());
      let url: URL;
      try { url = new URL(req.url ?? '/', 'http://localhost'); } catch { return refuse(socket, 400, 'bad request line'); }
      const route = routes.find((r) => r.match(url.pathname));
      if (!route) return refuse(socket, 404, `no WebSocket endpoint at ${url.pathname}`);
      route.handle(req, socket, head, url);
    });
  }
  list.push({ match, handle });
}

/** Refuses at the upgrade with a plain HTTP answer (never accept-then-drop). */
export function refuse(socket: Duplex, status: number, message: string, headers: Record<string, string> = {}): void {
  const reason = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 429: 'Too Many Requests' }[status] ?? 'Error';
  const body = JSON.stringify({ error: { status, message } });
  const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  socket.end(`HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n${extra}\r\n${body}`);
}
