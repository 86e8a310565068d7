// WebSocket frame shapes (docs/realtime.md). A JSON text frame whose `type` is one of the `ap_*`
// control types is a control frame; any other JSON value is a request body that runs the interface.
export type Id = string | number;

export type ClientFrame =
  | { kind: 'request'; id?: Id; body: unknown }
  | { kind: 'subscribe'; id?: Id; channel: string }
  | { kind: 'unsubscribe'; id?: Id; channel: string };

export type ServerFrame =
  | { type: 'ap_result'; id?: Id; status: number; body: unknown }
  | { type: 'ap_error'; id?: Id; status: number; message: string; body?: unknown; /** seconds, with a 429 */ retry_after?: number }
  | { type: 'ap_subscribed' | 'ap_unsubscribed'; id?: Id; channel: string }
  | { type: 'ap_message'; channel: string; data: unknown; retained?: true };

export const MAX_CHANNEL_LENGTH = 200;

const idOf = (o: Record<string, unknown>): { id?: Id } =>
  typeof o.id === 'string' || (typeof o.id === 'number' && Number.isFinite(o.id)) ? { id: o.id as Id } : {};

export function parseFrame(text: string): ClientFrame | { error: string; id?: Id } {
  let v: unknown;
  try { v = JSON.parse(text); } catch { return { error: 'the frame is not JSON' }; }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return { kind: 'request', body: v };
  const o = v as Record<string, unknown>;
  const type = o.type;
  if (typeof type !== 'string' || !type.startsWith('ap_')) return { kind: 'request', body: v };
  const id = idOf(o);
  switch (type) {
    case 'ap_request': return { kind: 'request', ...id, body: o.body ?? null };
    case 'ap_subscribe':
    case 'ap_unsubscribe': {
      const ch = o.channel;
      if (typeof ch !== 'string' || ch === '' || ch.length > MAX_CHANNEL_LENGTH) return { error: `"channel" must be text of 1 to ${MAX_CHANNEL_LENGTH} characters`, ...id };
      return { kind: type === 'ap_subscribe' ? 'subscribe' : 'unsubscribe', ...id, channel: ch };
    }
    default: return { error: `unknown frame type "${type.slice(0, 40)}" (ap_request, ap_subscribe, ap_unsubscribe)`, ...id };
  }
}
