// `mqtt_publish`: sends `data` (default: the request body) to the topics. A JSON string is sent as
// its raw text, any other value as its JSON encoding (spec). Waits only for what the QoS asks:
// the write for QoS 0, the broker's PUBACK/PUBCOMP for QoS 1 and 2. Data: {topics, qos, retain}.
import type { ActionKind } from './types.ts';
import { flagOn, nameList } from './targets.ts';

const fail = (error: string) => ({ ok: false, error: `mqtt_publish: ${error}`, failure: { kind: 'other' as const } });

export const mqttPublish: ActionKind = async (config, ctx) => {
  const c = (config ?? {}) as { topics?: unknown; data?: unknown; qos?: unknown; retain?: unknown };
  const topics = nameList(c.topics, 'topics');
  if (typeof topics === 'string') return fail(topics);
  const bad = topics.find((t) => /[+#\u0000]/.test(t));
  if (bad) return fail(`"${bad}" is not a topic to publish to (no +, # or NUL)`);
  const qos = Number(c.qos ?? 0);
  if (qos !== 0 && qos !== 1 && qos !== 2) return fail(`qos must be 0, 1 or 2, not ${JSON.stringify(c.qos)}`);
  if (!ctx.services.mqtt) return fail('MQTT is not available here (serve the config)');
  const data = c.data === undefined ? (ctx.scope.body ?? null) : c.data;
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  const retain = flagOn(c.retain);
  try {
    await ctx.services.mqtt.publish(topics, payload, qos, retain);
  } catch (e) {
    // The broker away is a transport failure: `retry` retries it like an unreachable upstream.
    return { ok: false, error: `mqtt_publish: ${(e as Error).message}`, failure: { kind: 'transport' as const, cls: 'connect' as const } };
  }
  return { ok: true, data: { topics, qos, retain } };
};
