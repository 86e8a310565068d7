// What a test case's run publishes: WebSocket channels, MQTT topics, emitted metrics and emails are
// recorded here instead of leaving the process, for `expect.published` (./expect.ts).
import type { Services } from '../services.ts';

export type Published =
  | { kind: 'ws' | 'mqtt'; to: string; message: unknown }
  | { kind: 'metric'; to: string; value: number; labels: Record<string, string> }
  | { kind: 'email'; to: string; email: Record<string, unknown> };

export class Captures {
  readonly list: Published[] = [];

  readonly channels: NonNullable<Services['channels']> = {
    publish: async (channels, data) => { for (const c of channels) this.list.push({ kind: 'ws', to: c, message: data }); },
  };

  readonly mqtt: NonNullable<Services['mqtt']> = {
    // The payload as sent is text: JSON text is read back as its value, other text stays text.
    publish: async (topics, payload) => { for (const t of topics) this.list.push({ kind: 'mqtt', to: t, message: parsed(payload) }); },
  };

  readonly metrics: NonNullable<Services['metrics']> = {
    emit: (e) => { this.list.push({ kind: 'metric', to: e.name, value: e.value, labels: e.labels }); return undefined; },
  };

  email(config: Record<string, unknown>): void {
    this.list.push({ kind: 'email', to: String(config.to ?? ''), email: config });
  }
}

function parsed(text: string): unknown {
  try { return JSON.parse(text); } catch { return text; }
}
