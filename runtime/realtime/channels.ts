// WebSocket channels of this service: the local hub, the bus to other nodes, and retained values
// (kept in the store, so a node that starts later, or another node, still has them).
import type { Store } from '../store-types.ts';
import { Hub } from './hub.ts';
import { LocalBus, PgBus, type Bus, type BusMessage } from './bus.ts';

import { WS_RETAIN_NS as RETAIN_NS } from '../values/namespace.ts';

export class Channels {
  readonly hub: Hub;
  private bus: Bus;

  constructor(private readonly store: Store | undefined, private readonly now: () => number, fanoutShare?: number) {
    this.hub = new Hub(fanoutShare);
    this.bus = new LocalBus((m) => this.arrive(m));
  }

  /** Carries publishes to every node sharing this Postgres database. */
  async shareThrough(url: string, schema: string, warn: (m: string) => void): Promise<void> {
    this.bus = await PgBus.open(url, schema, (m) => this.arrive(m), warn);
  }

  private arrive(m: BusMessage): void {
    this.hub.deliver(m.channel, m.data);
  }

  /** Publishes to every subscriber on every node; the sockets' delivery is not awaited. */
  async publish(channels: string[], data: unknown, retain: boolean): Promise<void> {
    for (const channel of channels) {
      if (retain && this.store) await this.store.stateSet(RETAIN_NS, channel, data, undefined, this.now());
      await this.bus.publish({ channel, data });
    }
  }

  async retained(channel: string): Promise<unknown> {
    if (!this.store) return undefined;
    return (await this.store.stateGet(RETAIN_NS, [channel], this.now()))[channel];
  }

  close(): Promise<void> { return this.bus.close(); }
}
