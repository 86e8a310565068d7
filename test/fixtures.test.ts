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
});
