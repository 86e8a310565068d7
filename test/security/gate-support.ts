// Shared by the inbound gate tests: a service with every surface on (HTTP, WebSocket, MCP, MQTT with
// the embedded broker, metrics, captures, OpenAPI, runs, resume), served on loopback, and clients
// that report how each surface answered.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';
import mqtt from 'mqtt';
import { buildApp, type ServerOptions } from '../../runtime/server/app.ts';
import { startMqtt, type MqttService } from '../../runtime/mqtt/index.ts';
import { systemClock, type Services } from '../../runtime/services.ts';
import { MemoryStore } from '../../runtime/store/index.ts';
import type { Plan } from '../../runtime/plan.ts';
import { planOf, testEnv } from '../support/plans.ts';

export const KEY = 'gate-key-0123456789abcdef';
export const ADMIN = 'admin-token-0123456789';

/** Every surface on; `network` is the config-wide policy (YAML, indented by two). */
export const everySurface = (network = '') => `
expose_metrics: true
${network}
interfaces:
  hello:
    method: GET
    actions:
      - name: A
        input: { hi: true }
        output: http
  open_data:
    method: GET
    public: true
    actions:
      - name: A
        input: { open: true }
        output: http
  socket:
    ws: true
    actions:
      - name: A
        input: { got: a|body| }
        output: http
  tool:
    method: POST
    mcp: { enabled: true }
    actions:
      - name: A
        input: { got: a|body| }
        output: http
  ingest:
    mqtt: orders/+
    actions:
      - name: Out
        mqtt_publish: { topics: done/orders, data: a|body| }
`;

export interface Served { app: FastifyInstance; mq: MqttService | undefined; http: string; ws: string; mqttPort: number; plans: Plan[]; warnings: string[] }

export async function serveAll(mode: 'compiled' | 'interpreted', yaml: string, o: Partial<ServerOptions> = {}, stops: Array<() => Promise<unknown>>): Promise<Served> {
  const plans = [await planOf('gate.yaml', mode, yaml)];
  const services: Services = { clock: systemClock, store: new MemoryStore() };
  const warnings: string[] = [];
  const app = buildApp(plans, { env: testEnv(), services, warn: (m) => warnings.push(m), ...o });
  stops.push(() => app.close());
  const mq = await startMqtt(app, plans, { environment: 'dev', env: testEnv(), services, node: `gate-${mode}`, host: '127.0.0.1', port: 0, warn: (m) => warnings.push(m) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  return { app, mq, http: `http://127.0.0.1:${port}`, ws: `ws://127.0.0.1:${port}`, mqttPort: mq?.broker?.port ?? 0, plans, warnings };
}

/** How an upgrade went: the HTTP status of a refusal, or 101 (then closed). */
export function upgrade(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.on('open', () => { ws.terminate(); resolve(101); });
    ws.on('unexpected-response', (_req, res) => { resolve(res.statusCode ?? 0); res.resume(); ws.terminate(); });
    ws.on('error', reject);
  });
}

/** An open WebSocket that queues the frames it receives. */
export function socket(url: string, headers: Record<string, string> = {}): Promise<{ ws: WebSocket; next: () => Promise<any> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    const frames: any[] = [];
    const waiters: Array<(f: any) => void> = [];
    ws.on('message', (d: Buffer) => { const f = JSON.parse(d.toString()); const w = waiters.shift(); if (w) w(f); else frames.push(f); });
    ws.on('open', () => resolve({ ws, next: () => (frames.length ? Promise.resolve(frames.shift()) : new Promise((r) => waiters.push(r))) }));
    ws.on('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    ws.on('error', reject);
  });
}

/** An MQTT CONNECT: 'connected' (then ended), or how it was refused (CONNACK code, or the socket closed). */
export async function mqttConnect(url: string, o: mqtt.IClientOptions = {}): Promise<string> {
  const c = mqtt.connect(url, { protocolVersion: 4, reconnectPeriod: 0, connectTimeout: 5000, ...o });
  const out = await new Promise<string>((resolve) => {
    c.once('connect', () => resolve('connected'));
    c.once('error', (e: Error & { code?: number }) => resolve(`refused ${e.code ?? e.message}`));
    c.once('close', () => resolve('closed'));
  });
  await c.endAsync(true);
  return out;
}

/** An MCP JSON-RPC request over HTTP (the stateless transport takes a tools/call without initialize). */
export async function mcp(http: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: any }> {
  const res = await fetch(`${http}/local/dev/mcp`, {
    method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown = text;
  try { json = JSON.parse(text); } catch { /* a refusal's text */ }
  return { status: res.status, json };
}

/** A path fastify would route to a registered route: each parameter and wildcard filled in. */
export const samplePath = (route: string) => route.replace(/:[A-Za-z0-9_]+/g, 'x').replace(/\*/g, 'x');

/** Every route fastify registered, from its own table (printRoutes' tree, children's paths
 *  relative to their parent's), as [method, path]. */
export function registeredRoutes(app: FastifyInstance): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const at = line.indexOf('── ');
    if (at < 0) continue;
    const depth = (at - 1) / 4;
    const m = /^(\S+)(?: \(([A-Z, ]+)\))?$/.exec(line.slice(at + 3).trim());
    if (!m) throw new Error(`printRoutes line not understood: ${line}`);
    stack.length = depth;
    const path = (depth ? stack[depth - 1]! : '') + m[1]!;
    stack.push(path);
    if (m[2]) for (const method of m[2].split(',').map((x) => x.trim())) out.push([method, path]);
  }
  return out;
}
