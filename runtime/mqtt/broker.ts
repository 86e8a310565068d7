// The embedded MQTT broker (aedes), so `serve` needs no broker: TCP on SERVICE__MQTT_PORT (default
// 1883; a port in use stops the start: publishes would otherwise reach whatever broker holds it) and MQTT over WebSocket at /mqtt on the service's
// HTTP server. One node only: several nodes share an external broker (SERVICE__MQTT_URL).
// Every client but the service's own passes the server's inbound gate (runtime/inbound.ts): its
// address at connect (the process-wide network policy), its credential (an API key or JWT as the
// MQTT password, once any credential is configured), and each publish that runs an interface that
// interface's network policy. A refused publish disconnects its client (MQTT 3.1.1 has no negative ack).
import { createServer, type Server as TcpServer } from 'node:net';
import type { Server } from 'node:http';
import { Duplex } from 'node:stream';
import { Aedes, type Client } from 'aedes';
import { BrokerPortTaken } from './port-taken.ts';
import { WebSocketServer, createWebSocketStream } from 'ws';
import { onUpgrade } from '../realtime/upgrade.ts';
import { gateOf, presentedOf, type Presented, type Surface } from '../inbound.ts';
import type { InterfacePlan, Plan } from '../plan.ts';

export const MQTT_WS_PATH = '/mqtt';

export interface EmbeddedBroker {
  /** A connection into the broker without a socket (the service's own client uses it). */
  connect(): Duplex;
  port?: number;
  close(): Promise<void>;
}

const MQTT: Surface = { kind: 'process', name: 'mqtt' };

export interface BrokerOptions {
  port?: number;
  host: string;
  warn: (m: string) => void;
  /** The interfaces a publish to `topic` runs (their network policy applies to the publisher). */
  triggered?: (topic: string) => Array<{ plan: Plan; iface: InterfacePlan }>;
}

export async function startBroker(http: Server, o: BrokerOptions): Promise<EmbeddedBroker> {
  const gate = gateOf(http);
  if (!gate) throw new Error('the embedded MQTT broker needs the inbound gate (runtime/server/gate-hooks.ts) on its HTTP server');
  const broker = await Aedes.createBroker();
  // The service's own client (connect()) is the one connection the gate does not see.
  const own = new WeakSet<object>();
  const clients = new WeakMap<Client, Presented>();
  const presented = (c: Client): Presented => clients.get(c) ?? (c.req ? presentedOf(c.req) : { peer: (c.conn as { remoteAddress?: string }).remoteAddress, headers: {} });
  const refused = (message: string, code: 4 | 5) => Object.assign(new Error(message), { returnCode: code as number });
  broker.preConnect = (client, _packet, done) => {
    if (own.has(client.conn)) return done(null, true);
    const who = presented(client);
    clients.set(client, who);
    // Over WebSocket the upgrade was checked (and counted) by the gate already.
    if (client.req) return done(null, true);
    gate.check(MQTT, who, { credential: false }).then((v) => done(v.ok ? null : refused(v.message, 5), v.ok), (e: Error) => done(e, false));
  };
  broker.authenticate = (client, _user, password, done) => {
    if (own.has(client.conn) || !gate.needsCredential(MQTT)) return done(null, true);
    const token = password?.toString('utf8') || undefined;
    gate.check(MQTT, { peer: presented(client).peer, headers: {}, ...(token ? { token } : {}) }, { spend: false })
      .then((v) => done(v.ok ? null : refused(v.message, token ? 4 : 5) as Parameters<typeof done>[0], v.ok), (e: Error) => done(refused(e.message, 5) as Parameters<typeof done>[0], false));
  };
  broker.authorizePublish = (client, packet, done) => {
    if (packet.topic.startsWith('$SYS')) return done(new Error('$SYS topics are reserved'));
    if (!client || own.has(client.conn) || !o.triggered) return done(null);
    const runs = o.triggered(packet.topic);
    if (!runs.length) return done(null);
    const who = presented(client);
    Promise.all(runs.map((t) => gate.check({ kind: 'interface', plan: t.plan, iface: t.iface }, who, { credential: false })))
      .then((vs) => { const no = vs.find((v) => !v.ok); done(no && !no.ok ? new Error(no.message) : null); }, (e: Error) => done(e));
  };
  // Nagle plus delayed ACKs cost ~40 ms per round trip on loopback: disable it.
  const tcp: TcpServer = createServer({ noDelay: true }, (s) => broker.handle(s));
  let port: number | undefined;
  if (o.port !== undefined) {
    port = await new Promise<number | undefined>((resolve, reject) => {
      tcp.once('error', (e: NodeJS.ErrnoException) => {
        broker.close();
        reject(new BrokerPortTaken(`the embedded MQTT broker cannot listen on port ${o.port} (${e.code ?? e.message}): clients and publishes would reach whatever holds it. Set SERVICE__MQTT_URL to use that broker (mqtt://127.0.0.1:${o.port}), or SERVICE__MQTT_PORT to another port (0 picks a free one)`));
      });
      tcp.listen(o.port, o.host, () => { const a = tcp.address(); resolve(typeof a === 'object' && a ? a.port : o.port); });
    });
  }
  const wss = new WebSocketServer({ noServer: true });
  // The credential comes in the MQTT CONNECT (its password), not at the upgrade.
  onUpgrade(http, {
    name: `MQTT over WebSocket (${MQTT_WS_PATH})`,
    match: (p) => p === MQTT_WS_PATH,
    surface: () => MQTT,
    gate: { credential: false },
    handle: (req, socket, head) => {
      wss.handleUpgrade(req, socket, head, (ws) => broker.handle(createWebSocketStream(ws) as unknown as Parameters<typeof broker.handle>[0], req));
    },
  });
  return {
    ...(port !== undefined ? { port } : {}),
    connect() {
      const [ours, theirs] = duplexPair();
      own.add(theirs);
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
