// `node --import tsx bench/mqtt-redelivery.ts [mqtt://127.0.0.1:1883]`: what the broker does with a
// QoS 1 delivery on a shared subscription ($share/…) that its subscriber never acknowledged because it
// died (socket destroyed, no DISCONNECT), and how mqtt.js orders acknowledgements it is told to delay.
// The evidence for "MQTT-triggered runs: at most once across a node's death" (decisions, h-faults).
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';

const url = process.argv[2] ?? 'mqtt://127.0.0.1:1883';
const tag = `pwredeliver${process.pid}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function member(id: string, opts: IClientOptions, group: string, topic: string, ack: boolean): Promise<{ c: MqttClient; got: string[] }> {
  const got: string[] = [];
  const c = await mqtt.connectAsync(url, {
    protocolVersion: 5, clientId: id, reconnectPeriod: 0, ...opts,
    customHandleAcks: (_t, m, p, done) => { got.push(`${m}${p.dup ? ' (dup)' : ''}`); if (ack) done(0); },
  });
  await c.subscribeAsync(`$share/${group}/${topic}`, { qos: 1 });
  return { c, got };
}

/** Member 1 holds one delivery unacknowledged and dies; member 2 of the group stays. */
async function scenario(name: string, session: IClientOptions, o: { reconnect: boolean; publishAfter: number; waitMs: number }) {
  const group = `${tag}-${name}`;
  const topic = `${tag}/${name}`;
  const s1 = await member(`${group}-1`, session, group, topic, false);
  const s2 = await member(`${group}-2`, { clean: true }, group, topic, true);
  const pub = await mqtt.connectAsync(url, { protocolVersion: 5, reconnectPeriod: 0 });
  for (let i = 0; !s1.got.length && i < 20; i++) { await pub.publishAsync(topic, `m${i}`, { qos: 1 }); await sleep(100); }
  s1.c.stream.destroy();
  await sleep(500);
  for (let k = 0; k < o.publishAfter; k++) await pub.publishAsync(topic, `after${k}`, { qos: 1 });
  await sleep(o.waitMs);
  const back = o.reconnect ? await member(`${group}-1`, { ...session, clean: false }, group, topic, true) : undefined;
  if (back) await sleep(1500);
  console.log(`${name}: held unacked by member 1: ${s1.got[0]}; member 2 got: [${s2.got.join(', ')}]${back ? `; member 1 back with its client id got: [${back.got.join(', ')}]` : ''}`);
  await Promise.all([s2.c.endAsync(), pub.endAsync(), back?.c.endAsync()]);
}

/** mqtt.js emits a QoS 1 message and reads the next packet only once its acknowledgement is sent. */
async function serial() {
  const topic = `${tag}/serial`;
  const t0 = Date.now();
  const at: string[] = [];
  const c = await mqtt.connectAsync(url, { protocolVersion: 5, reconnectPeriod: 0, customHandleAcks: (_t, m, _p, done) => { at.push(`${m} at ${Date.now() - t0} ms`); setTimeout(() => done(0), 1000); } });
  await c.subscribeAsync(topic, { qos: 1 });
  const pub = await mqtt.connectAsync(url, { protocolVersion: 5, reconnectPeriod: 0 });
  await Promise.all([1, 2, 3].map((i) => pub.publishAsync(topic, `m${i}`, { qos: 1 })));
  await sleep(3500);
  console.log(`acknowledgement delayed 1 s: three publishes sent together reach the handler ${at.join(', ')}`);
  await Promise.all([c.endAsync(true), pub.endAsync()]);
}

await scenario('clean session', { clean: true }, { reconnect: false, publishAfter: 0, waitMs: 2000 });
await scenario('persistent session, member 1 back', { clean: false, properties: { sessionExpiryInterval: 600 } }, { reconnect: true, publishAfter: 4, waitMs: 1000 });
await scenario('persistent session (2 s expiry), member 1 never back', { clean: false, properties: { sessionExpiryInterval: 2 } }, { reconnect: false, publishAfter: 4, waitMs: 5000 });
await serial();
