// The service's MQTT client: to an external broker (SERVICE__MQTT_URL, reconnecting with backoff and
// resubscribing: mqtt.js keeps the subscriptions of a non-clean session and replays them), or to
// the embedded broker in process (MQTT 3.1.1, what aedes speaks). MQTT 5 externally, so several nodes share trigger topics through shared
// subscriptions and each publish runs once.
import mqtt, { type MqttClient, type IClientOptions } from 'mqtt';
import type { Duplex } from 'node:stream';
import { isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { dialOrFail, refuseResolved } from '../network/dialer.ts';
import { Refused } from '../refused.ts';

const SETTING = 'SERVICE__MQTT_URL';

export interface MqttConnection {
  client: MqttClient;
  /** Whether subscriptions are shared between nodes ($share/<group>/…): external brokers only. */
  shared: boolean;
  close(): Promise<void>;
}

const base: IClientOptions = { protocolVersion: 5, reconnectPeriod: 1000, connectTimeout: 10_000, resubscribe: true };

/** A clean session that resubscribes after each reconnect: a dead node leaves no session behind to
 *  swallow its share of the shared subscriptions (publishes while disconnected are not received). */
export async function connectExternal(url: string, node: string, warn: (m: string) => void): Promise<MqttConnection> {
  // Every connection (and reconnection) to the broker goes through the outbound dialer; a refused
  // broker stops the start with the refusal (checked first, for a clear message).
  const u = new URL(url);
  await refuseResolved(u.hostname, SETTING);
  const opts: IClientOptions = { ...base, clientId: `pipewright-${node}`.slice(0, 64), clean: true };
  let client: MqttClient;
  if (u.protocol === 'ws:' || u.protocol === 'wss:') {
    const secure = u.protocol === 'wss:';
    client = await mqtt.connectAsync(url, { ...opts, wsOptions: { createConnection: (o: { host: string; port: number; servername?: string }) => brokerSocket(o.host, Number(o.port) || (secure ? 443 : 80), secure, o) } as never });
  } else {
    const secure = ['mqtts:', 'tls:', 'ssl:'].includes(u.protocol);
    if (!secure && u.protocol !== 'mqtt:' && u.protocol !== 'tcp:') throw new Refused(`${SETTING}: ${u.protocol}// is not a broker URL (mqtt://, mqtts://, ws:// or wss://)`, 400);
    const host = u.hostname.replace(/^\[|\]$/g, '');
    const port = Number(u.port) || (secure ? 8883 : 1883);
    client = new mqtt.MqttClient(() => brokerSocket(host, port, secure) as never, {
      ...opts, ...(u.username ? { username: decodeURIComponent(u.username) } : {}), ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    });
    await new Promise<void>((resolve, reject) => {
      const done = (e?: Error) => { client.off('connect', ok); client.off('error', done); if (!e) return resolve(); client.end(); reject(e); };
      const ok = () => done();
      client.once('connect', ok);
      client.once('error', done);
    });
  }
  watchConnection(client, warn);
  return { client, shared: true, close: () => client.endAsync() };
}

/** The broker's socket through the dialer, TLS over it when asked. A refusal carries a `code`: mqtt.js
 *  reports only coded stream errors (the rest would be retried in silence). */
function brokerSocket(host: string, port: number, secure: boolean, tls: { servername?: string } = {}): Duplex {
  const raw: Socket = dialOrFail(host, port, SETTING);
  raw.once('error', (e: Error) => { if (e instanceof Refused) Object.assign(e, { code: 'EREFUSED' }); });
  if (!secure) return raw;
  return tlsConnect({ ...tls, socket: raw, servername: tls.servername || (isIP(host) ? undefined : host) } as never);
}

/** One warning when the broker goes away (not one per retry) and one when it is back; an 'error'
 *  event without a listener would throw and end the process. */
function watchConnection(client: MqttClient, warn: (m: string) => void): void {
  let down = false;
  let lastError = '';
  client.on('error', (e) => { lastError = e.message; if (!down) warn(`mqtt: ${e.message}`); });
  client.on('offline', () => {
    if (down) return;
    down = true;
    warn(`mqtt: connection to the broker lost${lastError ? ` (${lastError})` : ''}; reconnecting every ${base.reconnectPeriod! / 1000} s`);
  });
  client.on('connect', () => {
    if (!down) return;
    down = false;
    lastError = '';
    warn('mqtt: reconnected to the broker; trigger subscriptions renewed');
  });
}

export async function connectEmbedded(stream: () => Duplex): Promise<MqttConnection> {
  // aedes speaks MQTT 3.1.1: no user properties or response topics on the embedded broker.
  const client = new mqtt.MqttClient(() => stream() as never, { ...base, protocolVersion: 4, clientId: 'pipewright-self', reconnectPeriod: 0 });
  await new Promise<void>((resolve, reject) => { client.once('connect', () => resolve()); client.once('error', reject); });
  return { client, shared: false, close: () => client.endAsync() };
}
