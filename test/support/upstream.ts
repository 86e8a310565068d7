// A real upstream API for tests (node:http on a free port): customers, orders, sales, a warehouse
// that is down for some SKUs, payments, and endpoints that fail. It counts hits per path.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Upstream {
  url: string;
  hits: Map<string, number>;
  requests: Array<{ method: string; path: string; headers: IncomingMessage['headers']; body: string }>;
  close(): Promise<void>;
}

const customers: Record<string, unknown> = {
  '1': { id: 1, name: 'Ada Lovelace', email: 'ada@example.com', tier: 'gold', password_hash: 'x' },
  '2': { id: 2, name: 'Alan Turing', email: 'alan@example.com', tier: 'silver', password_hash: 'y' },
};
const orders: Record<string, unknown[]> = {
  '1': [
    { id: 'o1', total: 120.5, status: 'shipped' },
    { id: 'o2', total: 30, status: 'cancelled' },
    { id: 'o3', total: 12.25, status: 'open' },
  ],
};
const sales = {
  data: {
    records: [
      { cust: 'acme', region: 'eu', quantity: '3', unit_price: '19.99', state: 'completed', internal_note: 'vip' },
      { cust: 'globex', region: 'us', quantity: '10', unit_price: '15.5', state: 'completed', internal_note: '' },
      { cust: 'initech', region: 'eu', quantity: '1', unit_price: '250', state: 'completed', internal_note: 'renewal' },
      { cust: 'umbrella', region: 'apac', quantity: '7', unit_price: '3.333', state: 'refunded', internal_note: '' },
      { cust: 'hooli', region: 'us', quantity: '2', unit_price: '99.995', state: 'completed', internal_note: '' },
    ],
  },
};

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function route(req: IncomingMessage, res: ServerResponse, body: string) {
  const path = (req.url ?? '/').split('?')[0]!;
  let m: RegExpExecArray | null;
  if ((m = /^\/customers\/(\w+)$/.exec(path))) return customers[m[1]!] ? json(res, 200, customers[m[1]!]) : json(res, 404, { error: 'no such customer' });
  if ((m = /^\/customers\/(\w+)\/orders$/.exec(path))) return orders[m[1]!] ? json(res, 200, orders[m[1]!]) : json(res, 404, []);
  if (path === '/sales') return json(res, 200, sales);
  if ((m = /^\/warehouse\/(\w+)$/.exec(path))) return m[1] === 'down' ? json(res, 503, { error: 'maintenance' }) : json(res, 200, { sku: m[1], stock: 42, source: 'warehouse' });
  if ((m = /^\/cache\/(\w+)$/.exec(path))) return json(res, 200, { sku: m[1], stock: 40 });
  if ((m = /^\/orders\/(\w+)$/.exec(path))) return m[1] === '7' ? json(res, 200, { id: 7, status: 'paid' }) : json(res, 404, { error: 'not found' });
  if (path === '/charge') {
    const b = JSON.parse(body || '{}') as { amount?: number; currency?: string };
    const ok = typeof b.amount === 'number' && b.amount <= 1000;
    return json(res, 200, ok ? { approved: true, amount: b.amount, currency: b.currency } : { approved: false, reason: 'limit exceeded' });
  }
  if (path === '/always-503') return json(res, 503, { error: 'unavailable' });
  if (path === '/echo') return json(res, 200, { method: req.method, headers: req.headers, body });
  if (path === '/v1/chat/completions') return json(res, 200, scriptedModel(JSON.parse(body || '{}')));
  json(res, 404, { error: `no route ${path}` });
}

/** A chat-completions model that follows a script: "price of <sku> x<qty>" asks the price tool,
 *  a tool result is turned into the answer, anything else is declined. Deterministic. */
function scriptedModel(b: { messages?: Array<{ role: string; content: string | null }>; tools?: Array<{ function: { name: string } }> }) {
  const last = b.messages?.[b.messages.length - 1];
  const say = (content: string) => ({ choices: [{ message: { role: 'assistant', content } }] });
  if (last?.role === 'tool') return say(`The total is ${(JSON.parse(last.content ?? '{}') as { total?: unknown }).total}.`);
  const m = /price of (\w+) x(\d+)/.exec(last?.content ?? '');
  if (m && b.tools?.some((t) => t.function.name === 'price')) {
    return { choices: [{ message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'price', arguments: JSON.stringify({ sku: m[1], qty: Number(m[2]) }) } }] } }] };
  }
  return say('I can only price things.');
}

export async function startUpstream(): Promise<Upstream> {
  const hits = new Map<string, number>();
  const requests: Upstream['requests'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = (req.url ?? '/').split('?')[0]!;
      hits.set(path, (hits.get(path) ?? 0) + 1);
      requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body });
      route(req, res, body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    requests,
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
