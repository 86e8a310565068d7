// Issue 29, part 1, in the compiled bundle (`node server.mjs`, settings from the environment as
// operators set them): the WebSocket, MCP and MQTT surfaces refuse a denied address, and with an
// API key configured refuse a client without it (metrics and OpenAPI too).
import { afterAll, describe, expect, it } from 'vitest';
import { serveBundle } from '../support/bundle.ts';
import { everySurface, KEY, mcp, mqttConnect, upgrade } from './gate-support.ts';

const stops: Array<() => unknown> = [];
afterAll(() => { for (const s of stops) s(); });

const env = { SERVICE__API_KEYS: 'GATE', SERVICE__SECRET__GATE: KEY, SERVICE__MQTT_PORT: '0', SERVICE__LOG_LEVEL: 'silent' };
const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'tool', arguments: { a: 1 } } };

describe('the bundle', () => {
  it('a config-wide deny_ips of the client: WebSocket upgrade, MCP tools/call and /mqtt refused with 403', async () => {
    const http = await serveBundle('gate.yaml', everySurface('network:\n  deny_ips: ["127.0.0.1", "::1"]'), env, stops);
    const ws = http.replace('http:', 'ws:');
    expect(await upgrade(`${ws}/ws/local/dev/socket?access_token=${KEY}`)).toBe(403);
    expect(await upgrade(`${ws}/mqtt`)).toBe(403);
    expect((await mcp(http, call, { 'x-api-key': KEY })).status).toBe(403);
    expect((await fetch(`${http}/metrics`, { headers: { 'x-api-key': KEY } })).status).toBe(403);
    expect((await fetch(`${http}/_ap/health`)).status).toBe(200);
    // Open by design too: the embedded broker's client is connected, the store in memory.
    const ready = await fetch(`${http}/_ap/ready`);
    expect([ready.status, await ready.json()]).toEqual([200, { ready: true }]);
  }, 120_000);

  it('with SERVICE__API_KEYS set: no credential, no WebSocket, MCP, MQTT, metrics or OpenAPI', async () => {
    const http = await serveBundle('gate.yaml', everySurface(), env, stops);
    const ws = http.replace('http:', 'ws:');
    expect(await upgrade(`${ws}/ws/local/dev/socket`)).toBe(401);
    expect(await upgrade(`${ws}/ws/local/dev/socket?access_token=${KEY}`)).toBe(101);
    expect(await mqttConnect(`${ws}/mqtt`)).toMatch(/^refused|^closed$/);
    expect(await mqttConnect(`${ws}/mqtt`, { username: 'svc', password: KEY })).toBe('connected');
    expect((await mcp(http, call)).status).toBe(401);
    expect((await mcp(http, call, { 'x-api-key': KEY })).json.result.structuredContent).toEqual({ got: { a: 1 } });
    for (const path of ['/metrics', '/_ap/openapi.json']) expect((await fetch(http + path)).status, path).toBe(401);
  }, 120_000);
});
