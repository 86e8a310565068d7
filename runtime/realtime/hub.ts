// This node's channel subscriptions. A publish reaches the local sockets through `deliver`; the bus
// carries it to the other nodes, whose hubs deliver it to theirs.
import type { ServerFrame } from './frames.ts';

export interface Subscriber {
  /** Sends a frame, or drops the socket when its buffer is full (slow consumer policy). */
  send(frame: ServerFrame): void;
  /** Sends a frame already encoded (one encoding serves every subscriber of a publish). */
  sendText(text: string | Buffer): void;
}

export class Hub {
  private readonly channels = new Map<string, Set<Subscriber>>();

  subscribe(s: Subscriber, channel: string): void {
    let set = this.channels.get(channel);
    if (!set) this.channels.set(channel, (set = new Set()));
    set.add(s);
  }

  unsubscribe(s: Subscriber, channel: string): void {
    const set = this.channels.get(channel);
    if (!set) return;
    set.delete(s);
    if (!set.size) this.channels.delete(channel);
  }

  drop(s: Subscriber, channels: Iterable<string>): void {
    for (const c of channels) this.unsubscribe(s, c);
  }

  /** Delivers one message to every local subscriber of the channel; returns how many got it. */
  deliver(channel: string, data: unknown): number {
    const set = this.channels.get(channel);
    if (!set) return 0;
    const frame: ServerFrame = { type: 'ap_message', channel, data };
    // Encoded once for all subscribers: the JSON text and its UTF-8 bytes.
    const bytes = Buffer.from(JSON.stringify(frame));
    for (const s of set) s.sendText(bytes);
    return set.size;
  }

  subscribers(channel: string): number {
    return this.channels.get(channel)?.size ?? 0;
  }
}
