// MQTT on the service: interfaces with `mqtt` run on publishes to `<environment>/<interface>/<mqtt>`,
// and `mqtt_publish` sends through the same connection. Started only when a config uses MQTT.
import type { FastifyInstance } from 'fastify';
import type { InterfacePlan, Plan } from '../plan.ts';
import { plansUse } from '../plan-uses.ts';
import type { Environment } from '../scope.ts';
import type { Services } from '../services.ts';
import { executeInterface, type RunResult } from '../exec/run.ts';
import { startBroker, type EmbeddedBroker } from './broker.ts';
import { connectEmbedded, connectExternal, type MqttConnection } from './connection.ts';
import { topicMatches, triggerTopic } from './topics.ts';

/** A publish the broker cannot take now (disconnected, or no acknowledgement in time). */
export class BrokerAway extends Error {}
const PUBLISH_ACK_MS = 10_000;

export interface MqttOptions {
  environment: string;
  env: Environment;
  services: Services;
  node: string;
  /** SERVICE__MQTT_URL: an external broker; unset: the embedded one. */
  url?: string;
  /** SERVICE__MQTT_PORT for the embedded broker's TCP listener (unset: WebSocket only). */
  port?: number;
  host: string;
  warn: (m: string) => void;
  afterRun?: (plan: Plan, i: InterfacePlan, r: RunResult) => void;
  /** False: the caller closes it (a server generation starts MQTT after its app is ready, when
   *  fastify takes no more hooks: runtime/server/generation.ts). Default: closed with the app. */
  closeWithApp?: boolean;
}

export interface MqttService { broker?: EmbeddedBroker; connection: MqttConnection; close(): Promise<void> }

export const usesMqtt = (plans: readonly Plan[]) => plansUse(plans, 'mqtt', 'mqtt_publish');

export async function startMqtt(app: FastifyInstance, plans: readonly Plan[], o: MqttOptions): Promise<MqttService | undefined> {
  if (!usesMqtt(plans)) return undefined;
  let broker: EmbeddedBroker | undefined;
  let connection: MqttConnection;
  const triggers = plans.flatMap((plan) => plan.interfaces.filter((i) => i.mqtt !== undefined).map((iface) => ({ plan, iface, filter: triggerTopic(o.environment, iface.name, iface.mqtt!) })));
  if (o.url) {
    // The publisher's address never reaches the service through an external broker: say so for a
    // trigger whose `network:` would otherwise look enforced.
    for (const t of triggers) {
      if (t.iface.network || t.plan.settings?.network) o.warn(`mqtt: the network policy of ${t.plan.name}.${t.iface.name} cannot apply to publishes through SERVICE__MQTT_URL (the broker does not pass on the publisher's address): the external broker's own access rules govern who may publish`);
    }
    connection = await connectExternal(o.url, o.node, o.warn);
  }
  else {
    const triggered = (topic: string) => triggers.filter((t) => topicMatches(t.filter, topic));
    broker = await startBroker(app.server, { ...(o.port !== undefined ? { port: o.port } : {}), host: o.host, warn: o.warn, triggered });
    const b = broker;
    connection = await connectEmbedded(() => b.connect());
  }
  const { client } = connection;
  o.services.mqtt = {
    // The broker away: the publish fails now (mqtt.js would queue it in memory without bound, and a
    // QoS 1/2 acknowledgement would wait for the reconnect); the action's `retry` decides what next.
    async publish(topics, payload, qos, retain) {
      if (!client.connected) throw new BrokerAway('the broker is not connected; nothing was published');
      const acked = Promise.all(topics.map((t) => client.publishAsync(t, payload, { qos, retain })));
      // QoS 0 waits only for the write: no acknowledgement to time (and no timer per publish).
      if (qos === 0) { await acked; return; }
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, fail) => { timer = setTimeout(() => fail(new BrokerAway(`the broker did not acknowledge within ${PUBLISH_ACK_MS / 1000} s`)), PUBLISH_ACK_MS); });
      try { await Promise.race([acked, late]); } finally { clearTimeout(timer); }
    },
  };
  if (triggers.length) {
    // Shared subscriptions on an external broker: each publish runs on one node, not on every node.
    const subs = triggers.map((t) => (connection.shared ? `$share/pipewright/${t.filter}` : t.filter));
    await client.subscribeAsync(subs, { qos: 1 });
  }
  client.on('message', (topic, payload, packet) => {
    for (const t of triggers) {
      if (!topicMatches(t.filter, topic)) continue;
      const text = payload.toString('utf8');
      let body: unknown = text;
      try { body = JSON.parse(text); } catch { /* text payloads stay text */ }
      const props = packet.properties ?? {};
      const headers: Record<string, string> = Object.fromEntries(Object.entries(props.userProperties ?? {}).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(', ') : String(v)]));
      if (props.contentType) headers['content-type'] = props.contentType;
      const request = { method: 'MQTT', path: topic, params: { topic }, headers, body, rawBody: text };
      void executeInterface(t.plan, t.iface, request, { trigger: 'mqtt', env: o.env, services: o.services }).then((r) => {
        o.afterRun?.(t.plan, t.iface, r);
        // MQTT 5 request/response: answer on the response topic with the correlation data.
        if (props.responseTopic) {
          const out = typeof r.response.body === 'string' ? r.response.body : JSON.stringify(r.response.body ?? null);
          client.publish(props.responseTopic, out, { qos: 1, properties: { ...(props.correlationData ? { correlationData: props.correlationData } : {}), userProperties: { status: String(r.response.status) } } });
        }
      }, (e: Error) => o.warn(`mqtt: interface ${t.iface.name} failed on ${topic}: ${e.message}`));
    }
  });
  // Once: a reload closes it before the app's close does (runtime/server/generation.ts).
  let closed: Promise<void> | undefined;
  const service: MqttService = {
    ...(broker ? { broker } : {}),
    connection,
    close: () => (closed ??= (async () => { await connection.close(); await broker?.close(); })()),
  };
  if (o.closeWithApp !== false) app.addHook('onClose', () => service.close());
  return service;
}
