// Graceful shutdown: fastify's close() stops accepting and answers new requests 503, but a keep-alive
// connection whose request is in flight stays open after its response, and the server's close waits
// for it, so a drain lasted the whole grace period. Responses written while closing carry
// `Connection: close`: the client and the server end the connection after them.
import type { FastifyInstance } from 'fastify';

export function closeConnectionsWhenDraining(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => { closing = true; });
  // A callback hook, not an async one: it runs on every response (no promise, no extra turn).
  app.addHook('onSend', (req, reply, payload, done) => {
    if (closing && req.raw.httpVersionMajor < 2) reply.header('connection', 'close');
    done(null, payload);
  });
}
