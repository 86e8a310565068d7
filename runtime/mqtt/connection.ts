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

export async function connectExternal(url: string, node: string): Promise<MqttConnection> {
  const client = await mqtt.connectAsync(url, { ...base, clientId: `pipewright-${node}`.slice(0, 64), clean: true });
  return { client, shared: true, close: () => client.endAsync() };
}

export async function connectEmbedded(stream: () => Duplex): Promise<MqttConnection> {
  // aedes speaks MQTT 3.1.1: no user properties or response topics on the embedded broker.
  const client = new mqtt.MqttClient(() => stream() as never, { ...base, protocolVersion: 4, clientId: 'pipewright-self', reconnectPeriod: 0 });
  await new Promise<void>((resolve, reject) => { client.once('connect', () => resolve()); client.once('error', reject); });
  return { client, shared: false, close: () => client.endAsync() };
}
