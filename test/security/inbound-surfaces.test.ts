// Issue 29, part 1: the reproductions, one by one, each through the inbound gate. WebSocket frames
// under an interface's rate limit, the embedded MQTT broker's credential and an MQTT trigger's
// policy, /metrics and OpenAPI, a non-public WebSocket interface with no credential configured,
// channels guarded everywhere, MCP tool calls as their interface (and MCP's params errors).
// Both paths, real sockets on loopback.
import { afterAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { buildApp } from '../../runtime/server/app.ts';
import { openSurfaces } from '../../runtime/server/gate-hooks.ts';
import { StartupError } from '../../runtime/server/startup-errors.ts';
import { compileConfig } from '../../compiler/project.ts';
import { planOf, testEnv } from '../support/plans.ts';
import { KEY, mcp, mqttConnect, serveAll, socket, upgrade } from './gate-support.ts';

const stops: Array<() => Promise<unknown>> = [];
afterAll(async () => { for (const s of stops.reverse()) await s(); });
const inbound = { apiKeys: [KEY] };

const SURFACES = `
expose_metrics: true
interfaces:
  limited:
    ws: true
    public: true
    network:
      rate_limit: { requests: 3, per: 24h } # a fixed window: a long one, so the test never straddles its edge
    actions:
      - name: A
        input: { got: a|body| }
        output: http
  members:
    ws: true
    actions:
      - name: A
        input: a|body|
        output: http
  order:
    method: POST
    actions:
      - name: Count
        emit_metric: { name: orders_total, type: counter, labels: { who: a|body::email| } }
        output: http
  ingest:
    mqtt: orders/+
    actions:
      - name: Out
        mqtt_publish: { topics: done/orders, data: a|body| }
  fenced:
    mqtt: fenced/+
    network:
      deny_ips: ["127.0.0.1", "::1"]
    actions:
      - name: Out
        mqtt_publish: { topics: done/fenced, data: a|body| }
`;

const MCP = `
interfaces:
  add:
    method: POST
    mcp: { enabled: true }
    actions:
      - name: Sum
        input: { a: a|body::a| }
        output: http
  shout:
    method: POST
    public: true
    mcp: { enabled: true }
    actions:
      - name: Loud
        input: { said: a|body::text| }
        output: http
  fenced:
    method: POST
    public: true
    mcp: { enabled: true }
    network:
      deny_ips: ["127.0.0.1", "::1"]
    actions:
      - name: F
        input: fenced
        output: http
  twice:
    method: POST
    public: true
    mcp: { enabled: true }
    network:
      rate_limit: { requests: 2, per: 24h } # a fixed window: a long one, so the test never straddles its edge
    actions:
      - name: T
        input: ok
        output: http
`;

const call = (name: string, args: unknown, id = 1) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

describe.each(['compiled', 'interpreted'] as const)('%s', (mode) => {
  it('a WebSocket interface with rate_limit 3 per day refuses the 4th frame (429 with retry_after), before it runs', async () => {
    const s = await serveAll(mode, SURFACES, {}, stops);
    const c = await socket(`${s.ws}/ws/local/dev/limited`);
    stops.push(async () => c.ws.terminate());
    for (let n = 1; n <= 3; n++) {
      c.ws.send(JSON.stringify({ type: 'ap_request', id: n, body: n }));
      expect(await c.next()).toEqual({ type: 'ap_result', id: n, status: 200, body: { got: n } });
    }
    c.ws.send(JSON.stringify({ type: 'ap_request', id: 4, body: 4 }));
    const refused = await c.next();
    expect(refused).toMatchObject({ type: 'ap_error', id: 4, status: 429, message: 'rate limit exceeded: 3 requests per 86400 s' });
    expect(refused.retry_after).toBeGreaterThan(0);
    // The upgrade spends no budget: a second socket of the same client is refused at its first frame.
    const d = await socket(`${s.ws}/ws/local/dev/limited`);
    stops.push(async () => d.ws.terminate());
    d.ws.send(JSON.stringify({ type: 'ap_subscribe', id: 's', channel: 'x' }));
    expect(await d.next()).toMatchObject({ type: 'ap_error', id: 's', status: 429 });
  });

  it('X-Forwarded-For sets the client address on every surface, from a trusted proxy only', async () => {
    const yaml = SURFACES.replace('expose_metrics: true', 'expose_metrics: true\nnetwork:\n  deny_ips: ["203.0.113.7"]');
    const xff = { 'x-forwarded-for': '203.0.113.7' };
    const trusted = await serveAll(mode, yaml, { network: { trustedProxies: '127.0.0.1, ::1' } }, stops);
    expect(await upgrade(`${trusted.ws}/ws/local/dev/limited`, xff)).toBe(403);
    expect(await upgrade(`${trusted.ws}/mqtt`, xff)).toBe(403);
    expect((await fetch(`${trusted.http}/metrics`, { headers: xff })).status).toBe(403);
    expect(await upgrade(`${trusted.ws}/ws/local/dev/limited`)).toBe(101);
    const direct = await serveAll(mode, yaml, {}, stops);
    expect(await upgrade(`${direct.ws}/ws/local/dev/limited`, xff)).toBe(101);
    expect((await fetch(`${direct.http}/metrics`, { headers: xff })).status).toBe(200);
  });

  it('a non-public WebSocket interface with no credential configured cannot be reached, and the start says so', async () => {
    const s = await serveAll(mode, SURFACES, {}, stops);
    expect(await upgrade(`${s.ws}/ws/local/dev/members`)).toBe(403);
    expect(s.warnings.join('\n')).toContain('WebSocket interface gate.members is not public and no credential is configured');
    expect(s.warnings.join('\n')).not.toContain('gate.limited');
    expect(await upgrade(`${s.ws}/ws/local/dev/limited`)).toBe(101);
  });

  it('the embedded broker takes no anonymous client once a key is configured: no subscribe to #, no trigger run', async () => {
    const s = await serveAll(mode, SURFACES, { inbound }, stops);
    const url = `mqtt://127.0.0.1:${s.mqttPort}`;
    expect(await mqttConnect(url)).toMatch(/^refused|^closed$/);
    expect(await mqttConnect(`${s.ws}/mqtt`)).toMatch(/^refused|^closed$/);
    expect(await mqttConnect(url, { username: 'x', password: 'wrong-key-0123456789' })).toMatch(/^refused|^closed$/);
    // With the key as its password, a client subscribes and its publish runs the interface.
    const sub = await mqtt.connectAsync(url, { protocolVersion: 4, reconnectPeriod: 0, password: KEY, username: 'svc' });
    stops.push(() => sub.endAsync(true));
    const got: string[] = [];
    let arrived: () => void = () => {};
    const one = new Promise<void>((r) => { arrived = r; });
    sub.on('message', (t, p) => { got.push(`${t} ${p}`); arrived(); });
    await sub.subscribeAsync('done/#', { qos: 1 });
    const pub = await mqtt.connectAsync(url, { protocolVersion: 4, reconnectPeriod: 0, password: KEY, username: 'svc' });
    stops.push(() => pub.endAsync(true));
    await pub.publishAsync('dev/ingest/orders/1', JSON.stringify({ id: 1 }), { qos: 1 });
    await one;
    expect(got).toEqual(['done/orders {"id":1}']);
  });

  it("an MQTT publish that triggers an interface is subject to that interface's network policy", async () => {
    const s = await serveAll(mode, SURFACES, { inbound }, stops);
    const pub = mqtt.connect(`mqtt://127.0.0.1:${s.mqttPort}`, { protocolVersion: 4, reconnectPeriod: 0, password: KEY, username: 'svc' });
    stops.push(() => pub.endAsync(true));
    await new Promise((r) => pub.once('connect', r));
    const closed = new Promise<void>((r) => pub.once('close', () => r()));
    pub.publish('dev/fenced/fenced/1', 'x', { qos: 1 });
    // The broker refuses the publish (MQTT 3.1.1 has no negative ack: it disconnects the client).
    await closed;
  });

  it('/metrics and the OpenAPI document take a credential once one is configured, unless opened by setting', async () => {
    const s = await serveAll(mode, SURFACES, { inbound }, stops);
    await fetch(`${s.http}/order`, { method: 'POST', headers: { 'x-api-key': KEY, 'content-type': 'application/json' }, body: '{"email":"ann@example.com"}' });
    for (const path of ['/metrics', '/_ap/openapi.json', '/_ap/openapi/gate.json']) {
      const res = await fetch(s.http + path);
      expect(res.status, path).toBe(401);
      expect(await res.text()).not.toContain('ann@example.com');
      expect((await fetch(s.http + path, { headers: { 'x-api-key': KEY } })).status, path).toBe(200);
    }
    expect(await (await fetch(`${s.http}/metrics`, { headers: { 'x-api-key': KEY } })).text()).toContain('ann@example.com');
    const open = await serveAll(mode, SURFACES, { inbound, open: openSurfaces({ SERVICE__PUBLIC_METRICS: '1', SERVICE__PUBLIC_OPENAPI: '1' }) }, stops);
    expect((await fetch(`${open.http}/metrics`)).status).toBe(200);
    expect((await fetch(`${open.http}/_ap/openapi.json`)).status).toBe(200);
    expect((await fetch(`${open.http}/order`, { method: 'POST' })).status).toBe(401);
  });

  it('an MCP tool call runs as its interface: its network policy, its rate limit, and the route asks a credential unless every tool is public', async () => {
    const s = await serveAll(mode, MCP, { inbound }, stops);
    // add is not public: the server asks a credential of every message.
    expect((await mcp(s.http, call('shout', { text: 'hi' }))).status).toBe(401);
    const ok = await mcp(s.http, call('add', { a: 1 }), { 'x-api-key': KEY });
    expect(ok.status).toBe(200);
    expect(ok.json.result.structuredContent).toEqual({ a: 1 });
    const fenced = await mcp(s.http, call('fenced', {}), { 'x-api-key': KEY });
    expect(fenced.status).toBe(403);
    expect(fenced.json).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32001, message: 'forbidden by the network policy', data: { status: 403 } } });
    for (const n of [1, 2]) expect((await mcp(s.http, call('twice', {}, n), { 'x-api-key': KEY })).status).toBe(200);
    const third = await mcp(s.http, call('twice', {}, 3), { 'x-api-key': KEY });
    expect(third.status).toBe(429);
    expect(third.json.error.message).toBe('rate limit exceeded: 2 requests per 86400 s');
  });

  it('MCP: arguments that are not an object answer -32602; arguments deeper than 256 levels are refused like an HTTP body', async () => {
    const s = await serveAll(mode, MCP, {}, stops);
    for (const args of ['{"a": 1}', 5, [1], null]) {
      const r = await mcp(s.http, call('add', args, 7));
      expect(r.status).toBe(200);
      expect(r.json.id).toBe(7);
      expect(r.json.error.code).toBe(-32602);
      expect(r.json.error.message).toMatch(/^invalid params: "arguments" must be an object/);
    }
    const deep = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":' + '['.repeat(50_000) + ']'.repeat(50_000) + '}}}';
    const r = await mcp(s.http, deep);
    expect(r.status).toBe(400);
    expect(r.json.error).toEqual({ code: -32602, message: 'invalid params: the request nests deeper than 256 levels' });
    // Still serving.
    expect((await mcp(s.http, call('add', { a: 2 }))).json.result.structuredContent).toEqual({ a: 2 });
  });
});

describe('channels guarded by subscribe_authorizer', () => {
  const mixed = `
interfaces:
  feed:
    ws: true
    subscribe_authorizer: may
    actions: [{ name: F, input: a|body|, output: http }]
  chat:
    ws: true
    public: true
    actions: [{ name: C, input: a|body|, output: http }]
  may:
    actions:
      - name: M
        input: a|body::channel|
        assert:
          tests: [{ value: a|body::channel|, regex: "^news-" }]
`;
  it('check refuses a WebSocket interface without an authorizer beside one that guards channels, with its position and a hint', () => {
    const c = compileConfig('mixed.yaml', mixed);
    expect(c.ok).toBe(false);
    const d = c.diagnostics.find((x) => x.message.includes('has no subscribe_authorizer'))!;
    expect(d).toMatchObject({ severity: 'error', line: 8, message: 'WebSocket interface "chat" has no subscribe_authorizer, but interface "feed" guards its channels with "may": channels are shared, so "chat" would subscribe to them unchecked' });
    expect(d.hint).toBe('add `subscribe_authorizer: may` (or an authorizer of its own) to interface "chat"');
  });

  it('configs served together: the start refuses an unguarded WebSocket interface beside a guarded one', async () => {
    const guarded = await planOf('a.yaml', 'interpreted', 'interfaces:\n  feed:\n    ws: true\n    subscribe_authorizer: may\n    actions: [{ name: F, input: a|body| }]\n  may:\n    actions: [{ name: M, input: ok }]\n');
    const open = await planOf('b.yaml', 'interpreted', 'interfaces:\n  chat:\n    ws: true\n    public: true\n    actions: [{ name: C, input: a|body| }]\n');
    expect(() => buildApp([guarded, open], { env: testEnv() })).toThrow(StartupError);
    expect(() => buildApp([guarded, open], { env: testEnv() })).toThrow('WebSocket interface b.chat has no subscribe_authorizer, but a.feed guards its channels');
  });
});

describe('settings', () => {
  it('SERVICE__PUBLIC_METRICS and SERVICE__PUBLIC_OPENAPI take 1 or 0; anything else stops the start', () => {
    expect(openSurfaces({})).toEqual({ publicMetrics: false, publicOpenapi: false });
    expect(openSurfaces({ SERVICE__PUBLIC_METRICS: '1', SERVICE__PUBLIC_OPENAPI: '0' })).toEqual({ publicMetrics: true, publicOpenapi: false });
    expect(() => openSurfaces({ SERVICE__PUBLIC_METRICS: 'yes' })).toThrow('SERVICE__PUBLIC_METRICS=yes must be 1 (open) or 0 (gated like an interface)');
  });
});
