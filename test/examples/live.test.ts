// The examples against real services: Postgres (the webhook's table, the export's orders, the
// approval's durable runs), Mosquitto, a WebSocket client, the in-process SFTP server and local HTTP
// upstreams standing in for chat, shop, payments, warehouse, model and enrichment APIs. The
// hermetic cases (examples/*/*.tests.yaml) say what the configs answer; this says they really work.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import mqtt from 'mqtt';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { closeDatabasePools } from '../../runtime/actions/database/pools.ts';
import { executeInterface } from '../../runtime/exec/run.ts';
import { startMqtt } from '../../runtime/mqtt/index.ts';
import { buildApp } from '../../runtime/server/app.ts';
import { systemClock, type Services } from '../../runtime/services.ts';
import { MemoryStore } from '../../runtime/store/memory.ts';
import { PostgresStore } from '../../runtime/store/postgres.ts';
import { DATABASE_URL, dropSchema, schemaName, until } from '../durable/helpers.ts';
import { startResumer } from '../../runtime/durable/resumer.ts';
import { processEnvironment } from '../../runtime/environment.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import type { Plan } from '../../runtime/plan.ts';
import type { Environment } from '../../runtime/scope.ts';
import { planOf, testEnv } from '../support/plans.ts';
import { startSftpServer } from '../sftp/server.ts';

const schema = schemaName('examples');
const dbUrl = `${DATABASE_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
const stops: Array<() => Promise<unknown> | unknown> = [];
let db: pg.Client;

beforeAll(async () => {
  db = new pg.Client({ connectionString: DATABASE_URL });
  await db.connect();
  await db.query(`CREATE SCHEMA "${schema}"`);
  await db.query(`SET search_path TO "${schema}"`);
});
afterAll(async () => {
  for (const s of stops.reverse()) await s();
  await closeDatabasePools();
  await db.end();
  await dropSchema(schema);
  await closeHttpPools();
});

/** Serves plans in process with an in-memory store (only_new, agent memory). */
/** An HS256 session token with `sub`, as the support-agent example's SESSION_KEY signs them. */
function sessionToken(sub: string, key: string): string {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const unsigned = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub })}`;
  return `${unsigned}.${createHmac('sha256', key).update(unsigned).digest('base64url')}`;
}

async function serve(plans: Plan[], env: Environment) {
  const app = buildApp(plans, { env, services: { clock: systemClock, store: new MemoryStore() } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  stops.push(() => app.close());
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

const example = (name: string, mode: 'compiled' | 'interpreted' = 'compiled', edit = (t: string) => t) =>
  planOf(`${name}.yaml`, mode, edit(readFileSync(`examples/${name}/${name}.yaml`, 'utf8')));

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: raw });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) as any : null };
}

describe('signed-webhook', () => {
  it('stores a signed event once, announces it after a chat outage, and refuses a forged one', async () => {
    await db.query('CREATE TABLE order_events (id text PRIMARY KEY, type text NOT NULL, total numeric NOT NULL, payload jsonb NOT NULL)');
    const chat = await countingUpstream({ '/chat': (_q, res, n) => (n === 1 ? json(res, 503, { error: 'down' }) : json(res, 200, { ok: true })) });
    stops.push(chat.close);
    const s = await serve([await example('signed-webhook')], testEnv({ CHAT_URL: `${chat.url}/chat` }, { DB_URL: dbUrl, HOOK_SECRET: 'whsec-test' }));
    const raw = '{"id":"ord_1001","type":"order.paid","total":42.5}';
    const sig = `sha256=${createHmac('sha256', 'whsec-test').update(raw).digest('hex')}`;

    expect(await post(`${s.url}/hooks/orders`, raw, { 'x-signature': sig })).toEqual({ status: 200, body: { id: 'ord_1001', stored: true } });
    expect((await db.query('SELECT id, type, total, payload FROM order_events')).rows).toEqual([{ id: 'ord_1001', type: 'order.paid', total: '42.5', payload: JSON.parse(raw) }]);
    expect(chat.hits.map((h) => JSON.parse(h.body))).toEqual([{ text: 'Order ord_1001: order.paid (42.5 EUR)' }, { text: 'Order ord_1001: order.paid (42.5 EUR)' }]);

    // The sender's redelivery: stored already, so no second announcement.
    expect(await post(`${s.url}/hooks/orders`, raw, { 'x-signature': sig })).toEqual({ status: 200, body: { id: 'ord_1001', stored: true } });
    expect(chat.count('/chat')).toBe(2);

    const forged = await post(`${s.url}/hooks/orders`, raw.replace('1001', '1002'), { 'x-signature': sig });
    expect(forged).toMatchObject({ status: 422, body: { error: { message: 'bad signature' } } });
    expect((await db.query('SELECT count(*)::int AS n FROM order_events')).rows).toEqual([{ n: 1 }]);
    expect(chat.count('/chat')).toBe(2);
  });
});

describe('order-feed', () => {
  it('reads every page, keeps the new orders, and publishes their totals on MQTT and a WebSocket channel', async () => {
    const pages: Record<string, unknown[]> = {
      '1': [{ id: 1, region: 'eu', total: 20 }, { id: 2, region: 'us', total: 5.5 }],
      '2': [{ id: 3, region: 'eu', total: 10 }],
      '3': [],
    };
    const shop = await countingUpstream({ '/orders': (q, res) => json(res, 200, { data: pages[new URL(q.url!, 'http://x').searchParams.get('page')!] ?? [] }) });
    stops.push(shop.close);
    const plan = await example('order-feed');
    const services: Services = { clock: systemClock, store: new MemoryStore() };
    const env = testEnv({ SHOP_API: shop.url }, { SHOP_TOKEN: 'shop-token' });
    const app = buildApp([plan], { env, services });
    const mq = await startMqtt(app, [plan], { environment: 'dev', env, services, node: 'examples', host: '127.0.0.1', warn: () => {}, url: process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883' });
    await app.listen({ port: 0, host: '127.0.0.1' });
    stops.push(() => app.close(), () => mq?.close());

    const topic = 'shop/orders/paid-totals';
    const sub = await mqtt.connectAsync(process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883', { protocolVersion: 5 });
    stops.push(() => sub.endAsync());
    const got: unknown[] = [];
    sub.on('message', (t, p) => { if (t === topic) got.push(JSON.parse(p.toString())); });
    await sub.subscribeAsync(topic, { qos: 1 });

    const ws = new WebSocket(`ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/ws/local/dev/live`);
    stops.push(() => ws.close());
    const frames: any[] = [];
    ws.on('message', (m) => frames.push(JSON.parse(String(m))));
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ type: 'ap_subscribe', channel: 'orders' }));
    await until(() => frames.some((f) => f.type === 'ap_subscribed'));

    const iface = plan.interfaces.find((i) => i.name === 'poll_orders')!;
    const tick = () => executeInterface(plan, iface, { method: 'POST', path: iface.route, params: {}, headers: {}, body: null, rawBody: '' }, { trigger: 'schedule', env, services });
    const first = await tick();
    const totals = { orders: 3, total: 35.5, regions: [{ region: 'eu', orders: 2, total: 30 }, { region: 'us', orders: 1, total: 5.5 }] };
    expect((first.response.body as any).ByRegion).toEqual(totals);
    expect(shop.hits.map((h) => h.path)).toEqual(['/orders?status=paid&per_page=100&page=1', '/orders?status=paid&per_page=100&page=2', '/orders?status=paid&per_page=100&page=3']);
    expect(shop.hits[0]!.headers.authorization).toBe('Bearer shop-token');
    await until(() => got.length === 1 && frames.some((f) => f.type === 'ap_message'));
    expect(got).toEqual([totals]);
    expect(frames.filter((f) => f.type === 'ap_message')).toEqual([{ type: 'ap_message', channel: 'orders', data: totals }]);

    // The next tick publishes only what is new.
    pages['2'] = [...pages['2']!, { id: 4, region: 'us', total: 1 }];
    const second = await tick();
    const next = { orders: 1, total: 1, regions: [{ region: 'us', orders: 1, total: 1 }] };
    expect((second.response.body as any).ByRegion).toEqual(next);
    await until(() => got.length === 2);
    expect(got[1]).toEqual(next);
  });
});

describe('refund-approval', () => {
  let store: PostgresStore;
  beforeAll(async () => { store = new PostgresStore({ url: DATABASE_URL, schema: `${schema}_runs` }); await store.init(); });
  afterAll(async () => { await store.close(); await dropSchema(`${schema}_runs`); });

  it('waits for the approver, pays on approval, says rejected, expires, and can be cancelled', async () => {
    const up = await countingUpstream({
      '/chat': (_q, res) => json(res, 200, { ok: true }),
      '/refunds': (_q, res) => json(res, 201, { id: 'rf_77' }),
    });
    stops.push(up.close);
    // 48h is the real timeout; the expiry case waits 300 ms.
    const plan = await example('refund-approval', 'compiled', (t) => t.replace('timeout: 48h', 'timeout: a|body::wait->default("48h")|'));
    const env = processEnvironment({ SERVICE__VAR__CHAT_URL: `${up.url}/chat`, SERVICE__VAR__PUBLIC_URL: 'https://refunds.example', SERVICE__VAR__PAYMENTS_API: up.url, SERVICE__SECRET__PAYMENTS_TOKEN: 'pay-token' });
    const services: Services = { clock: systemClock, store, maxDelayMs: 100 };
    const app = buildApp([plan], { env, services, node: 'examples', warn: () => {}, adminToken: 'admin-token-for-tests' });
    const resumer = startResumer({ plans: [plan], store, env, services, node: 'examples', pollMs: 50 });
    await app.listen({ port: 0, host: '127.0.0.1' });
    stops.push(() => resumer.stop(), () => app.close());
    const s = { url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
    const ask = async (body: object) => {
      const r = await post(`${s.url}/refund`, body);
      expect(r).toMatchObject({ status: 202, body: { status: 'suspended', action: 'Approval', reason: 'callback' } });
      const msg = JSON.parse(up.hits.filter((h) => h.path === '/chat').at(-1)!.body);
      return { id: String(r.body.run_id), msg, token: String(msg.approve_url).split('/_ap/resume/')[1]! };
    };
    const outcome = (id: string) => until(async () => {
      const v = await (await fetch(`${s.url}/_ap/runs/${id}`)).json() as any;
      return v.status !== 'suspended' && v.status !== 'running' ? v : undefined;
    });

    const a = await ask({ order_id: '1001', amount: 25, reason: 'damaged' });
    expect(a.msg).toEqual({ text: 'Refund of 25 EUR for order 1001: damaged', approve_url: `https://refunds.example/_ap/resume/${a.token}` });
    expect((await post(`${s.url}/_ap/resume/${a.token}`, { approved: true, by: 'lee' })).status).toBe(202);
    expect((await outcome(a.id)).outcome).toEqual({ http_code: 200, body: { order_id: '1001', status: 'refunded', refund_id: 'rf_77', approved_by: 'lee' } });
    expect(JSON.parse(up.hits.find((h) => h.path === '/refunds')!.body)).toEqual({ order_id: '1001', amount: 25, approved_by: 'lee' });
    expect(up.hits.find((h) => h.path === '/refunds')!.headers.authorization).toBe('Bearer pay-token');

    const b = await ask({ order_id: '1002', amount: 900 });
    await post(`${s.url}/_ap/resume/${b.token}`, { approved: false, by: 'kim', comment: 'outside policy' });
    expect((await outcome(b.id)).outcome).toEqual({ http_code: 200, body: { order_id: '1002', status: 'rejected', by: 'kim', comment: 'outside policy' } });

    const c = await ask({ order_id: '1003', amount: 10, wait: '300ms' });
    expect((await outcome(c.id)).outcome).toEqual({ http_code: 200, body: { order_id: '1003', status: 'expired' } });

    const d = await ask({ order_id: '1004', amount: 10 });
    expect(await post(`${s.url}/_ap/runs/${d.id}/cancel`, {}, { authorization: 'Bearer admin-token-for-tests' })).toMatchObject({ status: 200, body: { status: 'cancelled' } });
    expect((await post(`${s.url}/_ap/resume/${d.token}`, { approved: true })).status).toBe(410);
    expect(up.count('/refunds')).toBe(1);
  });
});

describe('mcp-inventory', () => {
  it('serves both interfaces as tools of the inventory MCP server, their accepts.schema refusing bad arguments', async () => {
    const wh = await countingUpstream({
      '/stock/ABC-0001': (_q, res) => json(res, 200, { sku: 'ABC-0001', warehouses: { berlin: 4, lyon: 2 }, total: 6, cost: 3.1 }),
      '/reservations': (_q, res, _n, body) => json(res, 201, { reservation: 'r-1', ...JSON.parse(body) }),
    });
    stops.push(wh.close);
    const s = await serve([await example('mcp-inventory')], testEnv({ WAREHOUSE_API: wh.url }, { WAREHOUSE_TOKEN: 'wh-token' }));
    let id = 0;
    const rpc = async (method: string, params?: unknown) => (await post(`${s.url}/local/dev/mcp/inventory`, { jsonrpc: '2.0', id: ++id, method, ...(params ? { params } : {}) }, { accept: 'application/json, text/event-stream' })).body;
    expect((await rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } })).result).toMatchObject({ serverInfo: { name: 'inventory', title: 'Inventory' } });
    const tools = (await rpc('tools/list')).result.tools;
    expect(tools.map((t: any) => [t.name, t.inputSchema.required])).toEqual([['stock_level', ['sku']], ['reserve_stock', ['sku', 'qty', 'order_id']]]);
    expect((await rpc('tools/call', { name: 'stock_level', arguments: { sku: 'ABC-0001' } })).result.structuredContent).toEqual({ sku: 'ABC-0001', warehouses: { berlin: 4, lyon: 2 }, total: 6 });
    expect((await rpc('tools/call', { name: 'reserve_stock', arguments: { sku: 'ABC-0001', qty: 2, order_id: '7' } })).result.structuredContent).toEqual({ reservation: 'r-1', sku: 'ABC-0001', qty: 2, order_id: '7' });
    expect((await rpc('tools/call', { name: 'reserve_stock', arguments: { sku: 'ABC-0001', qty: 500, order_id: '7' } })).result).toMatchObject({ isError: true });
    expect((await post(`${s.url}/reserve_stock`, { sku: 'ABC-0001', qty: 500, order_id: '7' })).status).toBe(400);
    expect(wh.count('/reservations')).toBe(1);
    expect(wh.hits[0]!.headers.authorization).toBe('Bearer wh-token');
    // The same interfaces over plain HTTP.
    expect(await post(`${s.url}/reserve_stock`, { sku: 'ABC-0001', qty: 1, order_id: '8' })).toEqual({ status: 201, body: { reservation: 'r-1', sku: 'ABC-0001', qty: 1, order_id: '8' } });
  });
});

describe('support-agent', () => {
  it('answers with the order tool, scoped to the token\'s customer, and remembers the conversation per customer', async () => {
    const seen: any[] = [];
    const order = { id: 42, status: 'shipped', eta: '2026-12-09', internal: 'x' };
    const up = await countingUpstream({
      // The shop scopes orders by customer: 43 is customer 8's, so customer 7 has none of that id.
      '/customers/7/orders/42': (_q, res) => json(res, 200, order),
      '/customers/7/orders/43': (_q, res) => json(res, 404, { error: 'not found' }),
      '/customers/8/orders/43': (_q, res) => json(res, 200, { ...order, id: 43 }),
      '/v1/chat/completions': (_q, res, _n, body) => {
        const b = JSON.parse(body);
        seen.push(b);
        const last = b.messages.at(-1);
        if (last.role === 'tool') {
          const content = last.content.startsWith('error: ') ? 'I cannot find that order on your account.' : `Order 42 is ${JSON.parse(last.content).status}.`;
          return json(res, 200, { choices: [{ message: { role: 'assistant', content } }] });
        }
        // Steered by the message, the model passes the customer number it was told: the tool ignores it.
        const asked = /order (\d+)(?:.*customer (\d+))?/.exec(last.content);
        const args = asked ? JSON.stringify({ order_id: asked[1], ...(asked[2] ? { customer_id: asked[2] } : {}) }) : '';
        if (asked) return json(res, 200, { choices: [{ message: { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'order_status', arguments: args } }] } }] });
        return json(res, 200, { choices: [{ message: { role: 'assistant', content: 'You are welcome.' } }] });
      },
    });
    stops.push(up.close);
    const s = await serve([await example('support-agent')], testEnv({ SHOP_API: up.url, MODEL_URL: up.url }, { MODEL_KEY: 'sk-test', SESSION_KEY: 'session-test' }));
    const session = (sub: string, key = 'session-test') => ({ authorization: `Bearer ${sessionToken(sub, key)}` });
    expect(await post(`${s.url}/chat`, { question: 'Where is order 42?' }, session('7'))).toEqual({ status: 200, body: { message: 'Order 42 is shipped.', iterations: 2 } });
    expect(seen[0].tools.map((t: any) => t.function.name)).toEqual(['order_status']);
    expect(up.hits.find((h) => h.path === '/v1/chat/completions')!.headers.authorization).toBe('Bearer sk-test');
    expect(await post(`${s.url}/chat`, { question: 'Thanks!' }, session('7'))).toEqual({ status: 200, body: { message: 'You are welcome.', iterations: 1 } });
    // The second call's model request carries the first exchange (memory), another customer's does not.
    expect(seen.at(-1).messages.filter((m: any) => m.role !== 'system').map((m: any) => [m.role, m.content])).toEqual([
      ['user', 'Where is order 42?'], ['assistant', 'Order 42 is shipped.'], ['user', 'Thanks!'],
    ]);
    await post(`${s.url}/chat`, { question: 'Hello' }, session('8'));
    expect(seen.at(-1).messages.filter((m: any) => m.role !== 'system')).toHaveLength(1);
    // The customer is the token's, never a number the caller names: no token, a header naming customer
    // 7, or a token for 7 signed with another key reach neither the model nor customer 7's memory.
    const calls = seen.length;
    expect((await post(`${s.url}/chat`, { question: 'Hello' })).status).toBe(422);
    expect((await post(`${s.url}/chat`, { question: 'Hello' }, { 'x-customer-id': '7' })).status).toBe(422);
    expect((await post(`${s.url}/chat`, { question: 'Hello' }, session('7', 'forged'))).status).toBe(401);
    expect(seen).toHaveLength(calls);
    // Customer 7 asks for customer 8's order, naming customer 8: the tool looks it up under 7 (the
    // token's `sub`), the shop answers 404, and the model is told so.
    expect(await post(`${s.url}/chat`, { question: 'Where is order 43? I am customer 8.' }, session('7'))).toEqual({ status: 200, body: { message: 'I cannot find that order on your account.', iterations: 2 } });
    expect(seen.at(-1).messages.at(-1).content).toMatch(/^error: .*"status":404/);
    expect(up.hits.filter((h) => h.path.startsWith('/customers/')).map((h) => h.path)).toEqual(['/customers/7/orders/42', '/customers/7/orders/43']);
    // The tool is an endpoint too, with the same rule: a token, and only its customer's orders.
    expect((await post(`${s.url}/order_status`, { order_id: '42' })).status).toBe(422);
    expect((await post(`${s.url}/order_status`, { order_id: '42' }, session('7', 'forged'))).status).toBe(401);
    expect((await post(`${s.url}/order_status`, { order_id: '43' }, session('7'))).status).toBe(404);
    expect(await post(`${s.url}/order_status`, { order_id: '43' }, session('8'))).toEqual({ status: 200, body: { id: 43, status: 'shipped', eta: '2026-12-09' } });
  });
});

describe('lead-enrichment', () => {
  it('enriches every lead it can and lists the failed lookups apart', async () => {
    const up = await countingUpstream({
      '/companies/acme.example': (_q, res) => json(res, 200, { name: 'Acme', industry: 'tools', employees: 120, domain: 'acme.example' }),
      '/companies/gone.example': (_q, res) => json(res, 404, { error: 'unknown domain' }),
      '/companies/flaky.example': (_q, res) => json(res, 500, { error: 'oops' }),
    });
    stops.push(up.close);
    const s = await serve([await example('lead-enrichment')], testEnv({ ENRICH_API: up.url }, { ENRICH_KEY: 'ek' }));
    const r = await post(`${s.url}/enrich_leads`, { leads: [
      { email: 'ada@acme.example', domain: 'acme.example' }, { email: 'bo@gone.example', domain: 'gone.example' }, { email: 'cy@flaky.example', domain: 'flaky.example' },
    ] });
    expect(r).toEqual({ status: 200, body: {
      enriched: [{ name: 'Acme', industry: 'tools', employees: 120, email: 'ada@acme.example' }],
      failed: [{ email: 'bo@gone.example', domain: 'gone.example', status: 404 }, { email: 'cy@flaky.example', domain: 'flaky.example', status: 500 }],
    } });
    expect(up.hits.every((h) => h.headers['x-api-key'] === 'ek')).toBe(true);
    expect((await post(`${s.url}/enrich_leads`, { leads: [] })).status).toBe(400);
  });
});

describe('nightly-export', () => {
  it("uploads yesterday's orders as CSV to the SFTP server", async () => {
    await db.query('CREATE TABLE orders (id int PRIMARY KEY, customer text, total numeric, currency text, created_at timestamptz)');
    await db.query(`INSERT INTO orders VALUES (1, 'Ada', 12.5, 'EUR', (current_date - 1) + time '09:00'), (2, '=HYPERLINK("x")', 3, 'EUR', (current_date - 1) + time '10:00'),
      (3, 'Today', 1, 'EUR', current_date + time '01:00')`);
    const sftp = await startSftpServer();
    stops.push(() => sftp.close());
    const plan = await example('nightly-export');
    const env = testEnv({ SFTP_HOST: '127.0.0.1', SFTP_PORT: String(sftp.port), SFTP_USER: sftp.user, SFTP_HOST_KEY: sftp.fingerprint },
      { DB_URL: dbUrl, SFTP_KEY: sftp.privateKey, SFTP_KEY_PASSPHRASE: sftp.passphrase });
    const iface = plan.interfaces[0]!;
    const { mkdirSync } = await import('node:fs');
    mkdirSync(`${sftp.root}/inbox`);
    const r = await executeInterface(plan, iface, { method: 'POST', path: iface.route, params: {}, headers: {}, body: null, rawBody: '' }, { trigger: 'schedule', env, services: { clock: systemClock, store: new MemoryStore() } });
    const day = (r.response.body as any).Day.day as string;
    expect(day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect((r.response.body as any).Upload).toMatchObject({ path: `/inbox/orders-${day}.csv` });
    const csv = readFileSync(`${sftp.root}/inbox/orders-${day}.csv`, 'utf8');
    expect(csv.split(/\r?\n/).slice(0, 3)).toEqual(['id,customer,total,currency,created_at', expect.stringMatching(/^1,Ada,12\.5,EUR,/), expect.stringMatching(/^2,"'=HYPERLINK\(""x""\)",3,EUR,/)]);
  });
});
