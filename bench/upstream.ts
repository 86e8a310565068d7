// The upstream every scenario may call, in its own process: plain node:http (so it is never the
// bottleneck), fixed JSON answers. GET /data: a 20-item document; GET /item/<n>: one small record.
import { createServer } from 'node:http';

const items = Array.from({ length: 20 }, (_, i) => ({ id: i + 1, name: `item ${i + 1}`, price: Math.round(((i * 37) % 100) * 1.25 * 100) / 100, tags: ['a', 'b'] }));
const data = Buffer.from(JSON.stringify({ page: 1, count: items.length, items }));

const server = createServer((req, res) => {
  const url = req.url ?? '/';
  let body: Buffer | undefined;
  if (url === '/data') body = data;
  else {
    const m = /^\/item\/(\d{1,6})$/.exec(url);
    if (m) body = Buffer.from(JSON.stringify({ id: Number(m[1]), name: `item ${m[1]}`, price: (Number(m[1]) % 50) + 0.5, stock: Number(m[1]) % 7 }));
  }
  if (!body) { res.writeHead(404).end(); return; }
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const a = server.address();
  process.stdout.write(`upstream: listening on http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}\n`);
});
process.on('SIGTERM', () => process.exit(0));
