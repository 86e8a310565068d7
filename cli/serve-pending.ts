// `serve --watch` when the configs do not compile at start: a placeholder listener on the port the
// server will use (no runtime loaded), until a saved config compiles. /_ap/health answers 200 (the
// process is alive: a liveness probe must not restart it into the same broken files), /_ap/ready 503
// `{"ready":false,"not":["config"]}`, every other route 503 with a JSON error saying why. The caller
// closes it and starts the server on its port once the configs compile.
import { createServer, type Server } from 'node:http';

const NOT_COMPILED = JSON.stringify({ error: { status: 503, message: 'the configs do not compile: nothing is served until they do (their errors are on the server\'s stderr; it serves once a fixed file is saved)' } });
const NOT_READY = JSON.stringify({ ready: false, not: ['config'] });

export interface Pending {
  /** The port listened on (--port 0: the one picked, which the server then keeps). */
  readonly port: number;
  close(): Promise<void>;
}

export async function listenPending(o: { port: number; host: string }): Promise<Pending> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const [status, body] = path === '/_ap/health' ? [200, '{"ok":true}'] : path === '/_ap/ready' ? [503, NOT_READY] : [503, NOT_COMPILED];
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...(status === 503 ? { 'retry-after': '5' } : {}) }).end(body);
  });
  await new Promise<void>((done, fail) => { server.once('error', fail); server.listen(o.port, o.host, () => { server.off('error', fail); done(); }); });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : o.port;
  return {
    port,
    close: () => new Promise<void>((done) => { server.close(() => done()); server.closeAllConnections(); }),
  };
}
