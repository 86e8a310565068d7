// A loopback TCP proxy in front of a Postgres: `cut()` resets every connection through it and
// refuses new ones (what a client sees while the database restarts or the network is gone),
// `restore()` serves again on the same port. It also counts what the clients send: round trips
// (simple queries `Q` and extended-protocol `Sync`s, each one wait for the server) and bytes.
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface PgProxy {
  port: number;
  url(db?: string): string;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
  counters: { roundTrips: number; bytesIn: number; bytesOut: number };
}

export async function pgProxy(target = { host: '127.0.0.1', port: 5432 }): Promise<PgProxy> {
  const sockets = new Set<Socket>();
  const counters = { roundTrips: 0, bytesIn: 0, bytesOut: 0 };
  let server: Server | undefined;
  const listen = (port: number) => new Promise<Server>((ok, fail) => {
    const s = createServer((client) => {
      const upstream = connect(target.port, target.host);
      for (const x of [client, upstream]) { sockets.add(x); x.on('close', () => sockets.delete(x)); x.on('error', () => {}); }
      const count = frontendCounter(counters);
      client.on('data', (d: Buffer) => { counters.bytesOut += d.length; count(d); });
      upstream.on('data', (d: Buffer) => { counters.bytesIn += d.length; });
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    s.once('error', fail);
    s.listen(port, '127.0.0.1', () => ok(s));
  });
  server = await listen(0);
  const port = (server.address() as { port: number }).port;
  const stop = async () => {
    for (const x of sockets) x.resetAndDestroy();
    sockets.clear();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    server = undefined;
  };
  return {
    port, counters,
    url: (db = 'test') => `postgres://postgres@127.0.0.1:${port}/${db}`,
    cut: stop,
    async restore() { if (!server) server = await listen(port); },
    close: stop,
  };
}

/** Frames the frontend's stream: a startup packet (length first, no type byte), then messages of a
 *  type byte and a length that counts itself. */
function frontendCounter(c: { roundTrips: number }): (d: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  let started = false;
  return (d) => {
    pending = pending.length ? Buffer.concat([pending, d]) : d;
    for (;;) {
      if (!started) {
        if (pending.length < 8) return;
        const len = pending.readInt32BE(0);
        if (pending.length < len) return;
        // An SSLRequest/GSSENCRequest is followed by the real startup packet.
        const code = pending.readInt32BE(4);
        if (code !== 80877103 && code !== 80877104) started = true;
        pending = pending.subarray(len);
        continue;
      }
      if (pending.length < 5) return;
      const len = pending.readInt32BE(1);
      if (pending.length < len + 1) return;
      const type = String.fromCharCode(pending[0]!);
      if (type === 'Q' || type === 'S') c.roundTrips++;
      pending = pending.subarray(len + 1);
    }
  };
}
