// MQTT triggers and publishing, in both execution paths: through the embedded broker (TCP and
// MQTT over WebSocket) and through the machine's Mosquitto with two nodes sharing the trigger.
import { afterAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../runtime/server/app.ts';
import { startMqtt, type MqttService } from '../../runtime/mqtt/index.ts';
import { systemClock, type Services } from '../../runtime/services.ts';
import { MemoryStore } from '../../runtime/store/index.ts';
import { planOf, testEnv } from '../support/plans.ts';

const MOSQUITTO = process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';
const config = (tag: string) => `
interfaces:
  ingest:
    mqtt: orders/+
    actions:
      - name: Order
        input: { order: a|body|, topic: a|params::topic|, source: a|header::source->default("none")| }
      - name: Forward
        mqtt_publish:
          topics: ["${tag}/processed", "${tag}/audit"]
          data: a|Order|
          qos: 1
        output: http
  notes:
    mqtt: notes
    actions:
      - name: Echo
        mqtt_publish: { topics: "${tag}/notes", data: a|body| }
`;

const apps: FastifyInstance[] = [];
const clients: MqttClient[] = [];
afterAll(async () => { for (const c of clients) await c.endAsync(); for (const a of apps) await a.close(); });

async function node(mode: 'compiled' | 'interpreted', tag: string, o: { url?: string; port?: number; name: string }) {
  const services: Services = { clock: systemClock, store: new MemoryStore() };
  const plans = [await planOf('mq.yaml', mode, config(tag))];
  const app = buildApp(plans, { env: testEnv(), services });
  apps.push(app);
  const mq = (await startMqtt(app, plans, { environment: 'dev', env: testEnv(), services, node: o.name, host: '127.0.0.1', warn: () => {}, ...(o.url ? { url: o.url } : {}), ...(o.port !== undefined ? { port: o.port } : {}) }))!;
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, mq, http: (app.server.address() as AddressInfo).port };
}

async function listen(url: string, topic: string, opts: mqtt.IClientOptions = {}) {
  const c = await mqtt.connectAsync(url, { protocolVersion: 5, ...opts });
  clients.push(c);
  const got: Array<{ topic: string; text: string }> = [];
  const waiters: Array<() => void> = [];
  c.on('message', (t, p) => { got.push({ topic: t, text: p.toString() }); waiters.splice(0).forEach((w) => w()); });
  await c.subscribeAsync(topic, { qos: 1 });
  const until = async (n: number, ms = 10_000) => {
    const end = Date.now() + ms;
    while (got.length < n && Date.now() < end) await new Promise<void>((r) => { waiters.push(r); setTimeout(r, 100); });
    return got;
  };
  return { client: c, got, until };
}

for (const mode of ['compiled', 'interpreted'] as const) {
  describe(`MQTT on the embedded broker (${mode})`, () => {
    it('runs an interface on a publish to <env>/<interface>/<mqtt> and publishes its result with QoS 1', async () => {
      const tag = `emb-${mode}`;
      const n = await node(mode, tag, { port: 0, name: `emb-${mode}` });
      const port = n.mq.broker!.port!;
      const sub = await listen(`mqtt://127.0.0.1:${port}`, `${tag}/#`, { protocolVersion: 4 });
      const pub = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { protocolVersion: 4 });
      clients.push(pub);
      await pub.publishAsync('dev/ingest/orders/eu', JSON.stringify({ id: 7 }), { qos: 1 });
      await pub.publishAsync('dev/notes/notes', 'plain text', { qos: 1 });
      const got = await sub.until(3);
      expect(got.map((g) => g.topic).sort()).toEqual([`${tag}/audit`, `${tag}/notes`, `${tag}/processed`]);
      expect(JSON.parse(got.find((g) => g.topic === `${tag}/processed`)!.text)).toEqual({ order: { id: 7 }, topic: 'dev/ingest/orders/eu', source: 'none' });
      // A JSON string publishes as its raw text.
      expect(got.find((g) => g.topic === `${tag}/notes`)!.text).toBe('plain text');
    });

    it('speaks MQTT over WebSocket at /mqtt on the HTTP port', async () => {
      const tag = `ws-${mode}`;
      const n = await node(mode, tag, { name: `ws-${mode}` });
      const sub = await listen(`ws://127.0.0.1:${n.http}/mqtt`, `${tag}/#`, { protocolVersion: 4 });
      await sub.client.publishAsync('dev/notes/notes', JSON.stringify({ hi: 1 }), { qos: 1 });
      expect(await sub.until(1)).toEqual([{ topic: `${tag}/notes`, text: '{"hi":1}' }]);
    });
  });
}

describe('MQTT through an external broker (Mosquitto), two nodes', () => {
  it('runs each trigger publish once across the nodes and reaches subscribers of either', async () => {
    const tag = `mosq-${process.pid}`;
    const a = await node('compiled', tag, { url: MOSQUITTO, name: `a-${process.pid}` });
    const b = await node('interpreted', tag, { url: MOSQUITTO, name: `b-${process.pid}` });
    const sub = await listen(MOSQUITTO, `${tag}/processed`);
    const pub = await mqtt.connectAsync(MOSQUITTO, { protocolVersion: 5 });
    clients.push(pub);
    for (let i = 0; i < 10; i++) await pub.publishAsync(`dev/ingest/orders/${i}`, JSON.stringify({ id: i }), { qos: 1, properties: { userProperties: { source: 'shop' } } });
    const got = await sub.until(10);
    await new Promise((r) => setTimeout(r, 300));
    // Shared subscription: ten publishes, ten runs in all, not ten per node.
    expect(got.map((g) => JSON.parse(g.text).order.id).sort((x: number, y: number) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // MQTT 5 user properties are the run's headers.
    expect(JSON.parse(got[0]!.text)).toMatchObject({ topic: expect.stringMatching(/^dev\/ingest\/orders\/\d$/), source: 'shop' });
    void a; void b;
  }, 30_000);
});
