// This node's channel subscriptions. A publish reaches the local sockets through `deliver`; the bus
// carries it to the other nodes, whose hubs deliver it to theirs.
//
// The cost of a fan-out is one write system call per socket (CPU profiles of the fanout benchmark:
// docs/decisions.md, Performance, "WebSocket fan-out"). So a message is encoded once, as the WebSocket
// frame's bytes, for all its sockets, and the messages published before a flush are delivered
// together: a socket that gets several gets their frames in one write.
//
// When a flush happens: at the end of the turn of the event loop in which the first pending message
// was published, but no sooner after the previous flush ended than that flush lasted (`share` 0.5:
// sustained fan-out takes at most half of the loop's time). Publishes that keep coming are written in
// pairs or more, at half the system calls per message on both ends of each socket, and the loop stays
// free half the time for the requests and sockets that are not fan-out. A lone publish (the last flush
// carried one message, and the loop has waited for work since it) goes out at the end of its turn:
// nothing is piling up for the rest to gather, nothing else waits for the loop, so the rest would only
// delay it (docs/decisions.md, Performance, "WebSocket fan-out").
import type { ServerFrame } from './frames.ts';
import { textFrame } from './wire.ts';
import { DEFAULT_FANOUT_SHARE } from './limits.ts';

export interface Subscriber {
  /** Sends a frame, or drops the socket when its buffer is full (slow consumer policy). */
  send(frame: ServerFrame): void;
  /** Writes bytes that are whole WebSocket frames, built once for every subscriber (same policy). */
  sendFrames(bytes: Buffer): void;
}

interface Pending { set: Set<Subscriber>; bytes: Buffer }


export class Hub {
  private readonly channels = new Map<string, Set<Subscriber>>();
  private pending: Pending[] = [];
  /** When the last flush ended (`now`, ms), the rest it earned before the next, the loop's idle time
   *  (`idle`) then, and whether it carried a single message. */
  private ended = -Infinity;
  private rest = 0;
  private idleAtEnd = 0;
  private lone = true;

  /** `idle`: the event loop's time spent waiting for work, in ms (libuv counts it only when the loop
   *  found nothing ready and blocked: a publish read right after a flush adds none). */
  constructor(
    private readonly share = DEFAULT_FANOUT_SHARE,
    private readonly now: () => number = () => performance.now(),
    private readonly idle: () => number = () => performance.eventLoopUtilization().idle,
  ) {}

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

  /** Queues one message for every local subscriber of the channel (sent at the next flush, in
   *  publish order); returns how many subscribers it has now. */
  deliver(channel: string, data: unknown): number {
    const set = this.channels.get(channel);
    if (!set) return 0;
    const frame: ServerFrame = { type: 'ap_message', channel, data };
    if (!this.pending.length) {
      // setImmediate, not a microtask: the publishes of the requests read in this turn share a flush.
      // The rest keeps the loop for other work and lets publishes that pile up leave together: after
      // a flush of one message, a loop that has waited for work since has neither to protect.
      const wait = this.ended + this.rest - this.now();
      if (wait > 0 && !(this.lone && this.idle() > this.idleAtEnd)) setTimeout(() => this.flush(), wait);
      else setImmediate(() => this.flush());
    }
    this.pending.push({ set, bytes: textFrame(JSON.stringify(frame)) });
    return set.size;
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    const start = this.now();
    try {
      this.write(batch);
    } finally {
      // Wall time, not CPU: a flush stretched by a busy machine earns a longer rest, so the next
      // one carries more messages per write when the cores are scarce.
      this.ended = this.now();
      this.rest = ((this.ended - start) * (1 - this.share)) / this.share;
      this.idleAtEnd = this.idle();
      this.lone = batch.length === 1;
    }
  }

  private write(batch: Pending[]): void {
    if (batch.length === 1 || batch.every((p) => p.set === batch[0]!.set)) {
      // One channel (the common case): every subscriber gets the same bytes.
      const bytes = batch.length === 1 ? batch[0]!.bytes : Buffer.concat(batch.map((p) => p.bytes));
      for (const s of batch[0]!.set) s.sendFrames(bytes);
      return;
    }
    // Several channels: each subscriber's frames in publish order, one write; subscribers of the
    // same channels share the concatenation.
    const mine = new Map<Subscriber, number[]>();
    batch.forEach((p, i) => { for (const s of p.set) { const l = mine.get(s); if (l) l.push(i); else mine.set(s, [i]); } });
    const joined = new Map<string, Buffer>();
    for (const [s, list] of mine) {
      const key = list.join();
      let bytes = joined.get(key);
      if (!bytes) joined.set(key, (bytes = list.length === 1 ? batch[list[0]!]!.bytes : Buffer.concat(list.map((i) => batch[i]!.bytes))));
      s.sendFrames(bytes);
    }
  }

  subscribers(channel: string): number {
    return this.channels.get(channel)?.size ?? 0;
  }
}
