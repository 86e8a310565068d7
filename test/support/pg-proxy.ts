// A loopback TCP proxy in front of the shared Postgres: `cut()` resets every connection through it
// and refuses new ones (what a client sees while the database restarts or the network is gone),
// `restore()` serves again on the same port. The machine's Postgres itself is never touched.
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface PgProxy { url: (db?: string) => string; port: number; cut(): Promise<void>; restore(): Promise<void>; close(): Promise<void> }

export async function pgProxy(target = { host: '127.0.0.1', port: 5432 }): Promise<PgProxy> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const listen = (port: number) => new Promise<Server>((ok, fail) => {
    const s = createServer((client) => {
      const upstream = connect(target.port, target.host);
      for (const x of [client, upstream]) { sockets.add(x); x.on('close', () => sockets.delete(x)); x.on('error', () => {}); }
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
    port,
    url: (db = 'test') => `postgres://postgres@127.0.0.1:${port}/${db}`,
    cut: stop,
    async restore() { if (!server) server = await listen(port); },
    close: stop,
  };
}
