// A tiny forward proxy (node:http): absolute-form requests are re-sent to their origin, CONNECT
// opens a raw tunnel. Records what it saw, so tests can prove traffic went through it.
import { createServer, request } from 'node:http';
import net, { type AddressInfo } from 'node:net';

export interface ProxySeen { method: string; url: string; proxyAuthorization?: string }

export async function startForwardProxy() {
  const seen: ProxySeen[] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url!, proxyAuthorization: req.headers['proxy-authorization'] });
    if (!/^http:\/\//.test(req.url!)) { res.writeHead(400); res.end('absolute-form expected'); return; }
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const out = request(req.url!, { method: req.method, headers }, (up) => { res.writeHead(up.statusCode!, up.headers); up.pipe(res); });
    out.on('error', () => { res.writeHead(502); res.end('bad gateway'); });
    req.pipe(out);
  });
  server.on('connect', (req, socket, head) => {
    seen.push({ method: 'CONNECT', url: req.url!, proxyAuthorization: req.headers['proxy-authorization'] });
    const [host, port] = req.url!.split(':');
    const up = net.connect(Number(port), host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      up.write(head);
      up.pipe(socket).pipe(up);
    });
    up.on('error', () => socket.destroy());
    socket.on('error', () => up.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`, port, seen,
    close: () => { server.closeAllConnections(); return new Promise<void>((r) => server.close(() => r())); },
  };
}
