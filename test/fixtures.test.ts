// What the example configs answer (the differential test proves the paths agree; this proves the
// answers are right). Served through the fast path against the local upstream.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools } from '../runtime/actions/http/pool.ts';
import { planOf, serveOn, testEnv } from './support/plans.ts';
import { startUpstream, type Upstream } from './support/upstream.ts';

let up: Upstream;
const apps: Array<{ close(): Promise<unknown> }> = [];
beforeAll(async () => { up = await startUpstream(); });
afterAll(async () => { for (const a of apps) await a.close(); await up.close(); await closeHttpPools(); });

async function serve(name: string) {
  const s = await serveOn([await planOf(`fixtures/${name}.yaml`, 'compiled')], testEnv({ API_BASE: up.url }));
  apps.push(s.app);
  return async (path: string, init: { method?: string; body?: unknown } = {}) => {
    const res = await fetch(s.url + path, { method: init.method ?? 'GET', ...(init.body !== undefined ? { body: JSON.stringify(init.body), headers: { 'content-type': 'application/json' } } : {}) });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
  };
}

describe('aggregation.yaml', () => {
  it('combines a customer and their open orders with totals', async () => {
    const get = await serve('aggregation');
    const r = await get('/customers/1/overview');
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.body).toEqual({
      Customer: { id: 1, name: 'Ada Lovelace', email: 'ada@example.com', tier: 'gold' },
      Orders: [{ id: 'o1', amount: 120.5, status: 'shipped' }, { id: 'o3', amount: 12.25, status: 'open' }],
      Totals: { count: 2, sum: { amount: 132.75 }, max: { amount: 120.5 } },
    });
    expect((await get('/customers/99/overview')).status).toBe(502);
    expect(await get('/customers/abc/overview')).toMatchObject({ status: 400, body: { error: { message: 'id must be a number' } } });
  });
});

describe('failures.yaml', () => {
  it('falls back, inherits statuses, and shapes error bodies', async () => {
    const call = await serve('failures');
    expect((await call('/inventory/abc')).body).toEqual({ sku: 'abc', stock: 42, source: 'warehouse' });
    expect((await call('/inventory/down')).body).toEqual({ sku: 'down', stock: 40, source: 'cache' });
    expect(await call('/orders/8')).toMatchObject({ status: 404, body: { error: 'order 8 not found' } });
    expect((await call('/payment', { method: 'POST', body: { amount: 20 } })).body).toEqual({ approved: true, amount: 20, currency: 'EUR' });
    const declined = await call('/payment', { method: 'POST', body: { amount: 5000 } });
    expect(declined.status).toBe(402);
    expect(declined.body.error.message).toBe('payment declined: limit exceeded');
    expect((await call('/flaky')).status).toBe(503);
    expect(up.hits.get('/always-503')).toBe(2);
    expect(up.hits.get('/never-called')).toBeUndefined();
  });
});

describe('report.yaml', () => {
  it('reshapes, filters, computes and summarises sales', async () => {
    const get = await serve('report');
    const r = (await get('/sales_report?min_total=100')).body;
    expect(r.big_sales).toEqual([
      { customer: 'initech', region: 'eu', total: 250 },
      { customer: 'hooli', region: 'us', total: 199.99 },
      { customer: 'globex', region: 'us', total: 155 },
    ]);
    expect(r.by_region.count).toBe(4);
    expect(r.by_region.sum.total).toBe(664.96);
    expect(r.regions).toEqual(['eu', 'us']);
    expect(r.generated_for).toBe('100');
    expect((await get('/sales_report')).body.big_sales).toHaveLength(4);
  });
});

describe('fanout.yaml', () => {
  it('partitions found and missing customers', async () => {
    const call = await serve('fanout');
    const r = await call('/customers_batch', { method: 'POST', body: { ids: [1, 2, 3] } });
    expect(r.body.Customers.succeeded.map((c: { requested_id: number }) => c.requested_id)).toEqual([1, 2]);
    expect(r.body.Customers.failed).toMatchObject([{ item: 3, http_code: 404 }]);
    expect(r.body.Summary).toEqual({ found: 2, missing: [3] });
    expect(r.headers.get('x-batch')).toBe('2 found');
    expect((await call('/resilient')).body).toEqual({ status: 'unknown', upstream_status: 503 });
  });

  it('discovers the members of a static list, without the excluded canary', async () => {
    const call = await serve('fanout');
    expect((await call('/peers')).body).toEqual([
      { name: 'api-1.internal', address: 'api-1.internal', port: 8080, url: 'http://api-1.internal:8080', source: 'static' },
      { name: 'api-2.internal', address: 'api-2.internal', port: 8081, url: 'http://api-2.internal:8081', source: 'static' },
      { name: 'fd00::7', address: 'fd00::7', port: 9000, url: 'http://[fd00::7]:9000', source: 'static' },
    ]);
  });
});

describe('assistant.yaml', () => {
  it('answers through the agent, which calls the price interface as a tool', async () => {
    const call = await serve('assistant');
    expect((await call('/price', { method: 'POST', body: { sku: 'abc', qty: 3 } })).body).toEqual({ sku: 'abc', qty: 3, unit: 2.5, stock: 42, total: 7.5 });
    expect((await call('/ask', { method: 'POST', body: { question: 'price of abc x3' } })).body).toEqual({
      message: 'The total is 7.5.',
      iterations: 2,
      transcript: [{ iteration: 1, tool: 'price', source: 'interface', arguments: { sku: 'abc', qty: 3 }, ok: true, result: { sku: 'abc', qty: 3, unit: 2.5, stock: 42, total: 7.5 } }],
    });
    expect((await call('/ask', { method: 'POST', body: { question: 'hello' } })).body).toEqual({ message: 'I can only price things.', iterations: 1, transcript: [] });
  });

  it('offers the price interface to MCP clients on the default route', async () => {
    const call = await serve('assistant');
    const rpc = async (id: number, method: string, params?: unknown) => {
      const s = apps[apps.length - 1] as unknown as { inject(o: object): Promise<{ json(): any }> };
      return (await s.inject({ method: 'POST', url: '/local/dev/mcp', headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' }, payload: { jsonrpc: '2.0', id, method, ...(params ? { params } : {}) } })).json();
    };
    void call;
    const init = await rpc(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } });
    expect(init.result).toMatchObject({ serverInfo: { name: 'shop', title: 'Shop tools' }, instructions: 'Prices and stock of the shop.' });
    expect((await rpc(2, 'tools/list')).result.tools).toEqual([{
      name: 'price',
      description: 'The price of a quantity of a SKU.',
      inputSchema: { type: 'object', properties: { sku: { type: 'string', pattern: '^[a-z]+$' }, qty: { type: 'number', minimum: 1, maximum: 100 } }, required: ['sku', 'qty'] },
    }]);
    expect((await rpc(3, 'tools/call', { name: 'price', arguments: { sku: 'abc', qty: 3 } })).result).toEqual({
      content: [{ type: 'text', text: '{"sku":"abc","qty":3,"unit":2.5,"stock":42,"total":7.5}' }],
      structuredContent: { sku: 'abc', qty: 3, unit: 2.5, stock: 42, total: 7.5 },
    });
    expect((await rpc(4, 'tools/call', { name: 'price', arguments: { sku: 'ABC', qty: 0 } })).result).toEqual({
      content: [{ type: 'text', text: 'invalid arguments for "price" at /sku: must match pattern "^[a-z]+$"' }],
      isError: true,
      // The same check, and the same body, as an HTTP request refused by accepts.schema (the first violation).
      structuredContent: { error: { status: 400, message: 'invalid arguments for "price" at /sku: must match pattern "^[a-z]+$"', violations: [{ path: '/sku', rule: 'pattern', message: 'must match pattern "^[a-z]+$"' }] } },
    });
  });
});

describe('commands.yaml', () => {
  it('passes request values to programs as data, with and without a shell; exit codes decide', async () => {
    const call = await serve('commands');
    const hostile = "$(touch pwned) `touch pwned2` \n'; rm -rf ./nothing";
    expect((await call('/echo', { method: 'POST', body: { text: hostile } })).body).toEqual({ exit_code: 0, stdout: `you said: ${hostile}\n`, stderr: '' });
    expect((await call('/word_count', { method: 'POST', body: { text: 'a; echo injected | wc -w; $(echo x y z)' } })).body).toEqual({ stdout: '10\n' });
    expect(await call('/exit_status?code=3')).toMatchObject({ status: 200, body: { exit_code: 3 } });
    expect(await call('/exit_status?code=7')).toMatchObject({ status: 500, body: { error: { action: 'Check', detail: 'command "/bin/sh" exited with code 7 (expect_exit: one of 0, 3)' } } });
    const { existsSync } = await import('node:fs');
    expect(existsSync('pwned') || existsSync('pwned2')).toBe(false);
  });
});
