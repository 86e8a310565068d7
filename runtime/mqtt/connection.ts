// The service's MQTT client: to an external broker (SERVICE__MQTT_URL, reconnecting with backoff and
// resubscribing: mqtt.js keeps the subscriptions of a non-clean session and replays them), or to
// the embedded broker in process (MQTT 3.1.1, what aedes speaks). MQTT 5 externally, so several nodes share trigger topics through shared
// subscriptions and each publish runs once.
import mqtt, { type MqttClient, type IClientOptions } from 'mqtt';
import type { Duplex } from 'node:stream';

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
  const client = await mqtt.connectAsync(url, { ...base, clientId: `pipewright-${node}`.slice(0, 64), clean: true });
  watchConnection(client, warn);
  return { client, shared: true, close: () => client.endAsync() };
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
