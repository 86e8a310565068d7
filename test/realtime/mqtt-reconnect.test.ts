// The external broker restarts: a private Mosquitto on a free port (never the machine's on 1883),
// a served config with an `mqtt` trigger and `mqtt_publish` pointed at it (SERVICE__MQTT_URL's path),
// the broker stopped and started again. The service reconnects and resubscribes on its own: a publish
// after the restart still runs the interface and its mqtt_publish still delivers. Both paths.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../runtime/server/app.ts';
import { startMqtt } from '../../runtime/mqtt/index.ts';
import { systemClock, type Services } from '../../runtime/services.ts';
import { MemoryStore } from '../../runtime/store/index.ts';
import { planOf, testEnv } from '../support/plans.ts';
import { until } from '../durable/helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'pw-mosq-'));
let port = 0;
let broker: ChildProcess | undefined;
const apps: FastifyInstance[] = [];
const clients: MqttClient[] = [];

const freePort = () => new Promise<number>((ok) => {
  const s = createServer().listen(0, '127.0.0.1', () => { const p = (s.address() as { port: number }).port; s.close(() => ok(p)); });
});
const accepting = () => new Promise<boolean>((ok) => {
  const c = connect(port, '127.0.0.1');
  c.once('connect', () => { c.destroy(); ok(true); });
  c.once('error', () => ok(false));
});

async function startBroker() {
  broker = spawn('mosquitto', ['-c', join(dir, 'mosquitto.conf')], { stdio: 'ignore' });
  await until(accepting);
}
async function stopBroker() {
  const b = broker!;
  const gone = new Promise((r) => b.once('exit', r));
  b.kill('SIGTERM');
  await gone;
  await until(async () => !(await accepting()) || undefined);
}

beforeAll(async () => {
  port = await freePort();
  writeFileSync(join(dir, 'mosquitto.conf'), `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\n`);
  await startBroker();
});
afterAll(async () => {
  for (const c of clients) await c.endAsync(true);
  for (const a of apps) await a.close();
  broker?.kill('SIGKILL');
});

const config = (tag: string) => `
interfaces:
  ingest:
    mqtt: orders/+
    actions:
      - name: Forward
        mqtt_publish: { topics: "${tag}/processed", data: { order: a|body|, topic: a|params::topic| }, qos: 1 }
        output: http
  notify:
    method: POST
    actions:
      - name: Note
        mqtt_publish: { topics: "${tag}/notes", data: a|body|, qos: 1 }
        output: http
`;

/** A subscriber of `topic` on the private broker (connected afresh: the test's own clients are not under test). */
async function subscriber(topic: string) {
  const c = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { protocolVersion: 5, reconnectPeriod: 0 });
  clients.push(c);
  const got: unknown[] = [];
  c.on('message', (_t, p) => got.push(JSON.parse(p.toString())));
  await c.subscribeAsync(topic, { qos: 1 });
  return { client: c, got };
}

/** Publishes order ids until one comes back processed (the resubscription may land just after the reconnect). */
async function roundTrip(tag: string, from: number) {
  const sub = await subscriber(`${tag}/processed`);
  let id = from;
  const first = await until(async () => {
    await sub.client.publishAsync(`dev/ingest/orders/${id}`, JSON.stringify({ id }), { qos: 1 });
    id++;
    const end = Date.now() + 500;
    while (!sub.got.length && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    return sub.got[0];
  }, 30_000);
  await sub.client.endAsync();
  return first as { order: { id: number }; topic: string };
}

for (const mode of ['compiled', 'interpreted'] as const) {
  describe(`an external broker that restarts (${mode})`, () => {
    it('is reconnected and resubscribed: a publish after the restart still triggers the interface and mqtt_publish delivers', async () => {
      const tag = `restart-${mode}-${process.pid}`;
      const services: Services = { clock: systemClock, store: new MemoryStore() };
      const plans = [await planOf('mq.yaml', mode, config(tag))];
      const app = buildApp(plans, { env: testEnv(), services });
      apps.push(app);
      const warnings: string[] = [];
      const mq = (await startMqtt(app, plans, { environment: 'dev', env: testEnv(), services, node: `restart-${mode}`, host: '127.0.0.1', url: `mqtt://127.0.0.1:${port}`, warn: (m) => warnings.push(m) }))!;
      await app.listen({ port: 0, host: '127.0.0.1' });

      const before = await roundTrip(tag, 0);
      expect(before).toMatchObject({ order: { id: expect.any(Number) }, topic: expect.stringMatching(/^dev\/ingest\/orders\/\d+$/) });

      // Down for at least two reconnect attempts, each refused (counted, not slept for: a loaded
      // machine fires the reconnect timer late). An attempt ends in 'close' when the connection fails.
      let attempts = 0, refused = 0;
      const client = mq.connection.client;
      client.on('reconnect', () => { attempts++; });
      client.on('close', () => { if (attempts > 0 && !client.connected) refused = attempts; });
      await stopBroker();
      await until(() => !client.connected || undefined);
      await until(() => refused >= 2 || undefined);
      // A publish while the broker is away fails at once with the reason (no unbounded queue, no wait).
      const addr = app.server.address() as { port: number };
      const away = await fetch(`http://127.0.0.1:${addr.port}/notify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":1}' });
      // (Before: mqtt.js queued it and the QoS 1 acknowledgement held the request until the reconnect.)
      expect(away.status).toBe(502);
      expect(await away.json()).toEqual({ error: { status: 502, message: 'action "Note" failed', action: 'Note' } });
      await startBroker();
      await until(() => mq.connection.client.connected || undefined, 30_000);

      const after = await roundTrip(tag, 1000);
      expect(after.order.id).toBeGreaterThanOrEqual(1000);
      expect(after.topic).toBe(`dev/ingest/orders/${after.order.id}`);
      // The operator sees the outage once and the recovery once.
      expect(warnings.filter((w) => /connection to the broker lost/.test(w))).toHaveLength(1);
      expect(warnings.filter((w) => /reconnected to the broker/.test(w))).toHaveLength(1);
    }, 60_000);
  });
}
