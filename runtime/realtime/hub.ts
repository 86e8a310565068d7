// This node's channel subscriptions. A publish reaches the local sockets through `deliver`; the bus
// carries it to the other nodes, whose hubs deliver it to theirs.
//
// The cost of a fan-out is one write system call per socket per message (a CPU profile of the fanout
// benchmark: ~45% of the server's time in writev, everything else a few % each). So a message is
// encoded once for all its sockets, and the messages published within one turn of the event loop
// are delivered together at its end: a socket that gets several is corked around them, and its
// frames leave in one write. A server that falls behind (publishes queuing up) so makes fewer,
// larger writes instead of falling further behind; one that keeps up adds no wait beyond the turn.
import type { ServerFrame } from './frames.ts';

export interface Subscriber {
  /** Sends a frame, or drops the socket when its buffer is full (slow consumer policy). */
  send(frame: ServerFrame): void;
  /** Sends a frame already encoded (one encoding serves every subscriber of a publish). */
  sendText(text: string | Buffer): void;
  /** Holds the socket's writes until `uncork`, so that several frames leave in one write. */
  cork?(): void;
  uncork?(): void;
}

interface Pending { set: Set<Subscriber>; bytes: Buffer }

export class Hub {
  private readonly channels = new Map<string, Set<Subscriber>>();
  private pending: Pending[] = [];

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

  /** Queues one message for every local subscriber of the channel (sent at the end of this turn of
   *  the event loop, in publish order); returns how many subscribers it has now. */
  deliver(channel: string, data: unknown): number {
    const set = this.channels.get(channel);
    if (!set) return 0;
    const frame: ServerFrame = { type: 'ap_message', channel, data };
    if (!this.pending.length) setImmediate(() => this.flush());
    this.pending.push({ set, bytes: Buffer.from(JSON.stringify(frame)) });
    return set.size;
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 1) {
      const { set, bytes } = batch[0]!;
      for (const s of set) s.sendText(bytes);
      return;
    }
    const corked = new Set<Subscriber>();
    try {
      for (const { set, bytes } of batch) {
        for (const s of set) {
          if (!corked.has(s)) { corked.add(s); s.cork?.(); }
          s.sendText(bytes);
        }
      }
    } finally {
      for (const s of corked) s.uncork?.();
    }
  }

  subscribers(channel: string): number {
    return this.channels.get(channel)?.size ?? 0;
  }
}
