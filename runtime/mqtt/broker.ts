// The embedded MQTT broker (aedes), so `serve` needs no broker: TCP on SERVICE__MQTT_PORT (default
// 1883; a port in use is a warning, not a crash) and MQTT over WebSocket at /mqtt on the service's
// HTTP server. One node only: several nodes share an external broker (SERVICE__MQTT_URL).
import { createServer, type Server as TcpServer } from 'node:net';
import type { Server } from 'node:http';
import { Duplex } from 'node:stream';
import { Aedes } from 'aedes';
import { WebSocketServer, createWebSocketStream } from 'ws';
import { onUpgrade } from '../realtime/upgrade.ts';

export const MQTT_WS_PATH = '/mqtt';

export interface EmbeddedBroker {
  /** A connection into the broker without a socket (the service's own client uses it). */
  connect(): Duplex;
  port?: number;
  close(): Promise<void>;
}

export async function startBroker(http: Server, o: { port?: number; host: string; warn: (m: string) => void }): Promise<EmbeddedBroker> {
  const broker = await Aedes.createBroker();
  // Nagle plus delayed ACKs cost ~40 ms per round trip on loopback: disable it.
  const tcp: TcpServer = createServer({ noDelay: true }, (s) => broker.handle(s));
  let port: number | undefined;
  if (o.port !== undefined) {
    port = await new Promise<number | undefined>((resolve) => {
      tcp.once('error', (e: NodeJS.ErrnoException) => {
        o.warn(`mqtt: the embedded broker could not listen on port ${o.port} (${e.code ?? e.message}); MQTT stays available over WebSocket at ${MQTT_WS_PATH}`);
        resolve(undefined);
      });
      tcp.listen(o.port, o.host, () => { const a = tcp.address(); resolve(typeof a === 'object' && a ? a.port : o.port); });
    });
  }
  const wss = new WebSocketServer({ noServer: true });
  onUpgrade(http, (p) => p === MQTT_WS_PATH, (req, socket, head) => {
    wss.handleUpgrade(req, socket, head, (ws) => broker.handle(createWebSocketStream(ws) as unknown as Parameters<typeof broker.handle>[0], req));
  });
  return {
    ...(port !== undefined ? { port } : {}),
    connect() {
      const [ours, theirs] = duplexPair();
      broker.handle(theirs as unknown as Parameters<typeof broker.handle>[0]);
      return ours;
    },
    async close() {
      for (const c of wss.clients) c.terminate();
      wss.close();
      await new Promise<void>((r) => (tcp.listening ? tcp.close(() => r()) : r()));
      await new Promise<void>((r) => broker.close(() => r()));
    },
  };
}

/** Two connected in-memory streams (node:stream's duplexPair needs Node 22). */
function duplexPair(): [Duplex, Duplex] {
  const make = (other: () => Duplex) => new Duplex({
    read() {},
    write(chunk, _enc, cb) { other().push(chunk); cb(); },
    final(cb) { other().push(null); cb(); },
    destroy(err, cb) { other().push(null); cb(err); },
  });
  const a: Duplex = make(() => b);
  const b: Duplex = make(() => a);
  return [a, b];
}
