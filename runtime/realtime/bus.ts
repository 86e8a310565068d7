// How a ws_publish reaches the other nodes. One node: nothing to carry. Several nodes sharing
// Postgres (SERVICE__DATABASE_URL): LISTEN/NOTIFY, the engine they already share; payloads over
// NOTIFY's 8000-byte limit are written to a table and announced by id.
import pg from 'pg';
import { quoteSchema } from '../store/pg-schema.ts';
import { createUnderLock } from '../store/pg-create.ts';

export interface BusMessage { channel: string; data: unknown }

export interface Bus {
  /** Sends to every node, this one included (its hub delivers when the message comes back). */
  publish(m: BusMessage): Promise<void>;
  close(): Promise<void>;
}

export class LocalBus implements Bus {
  constructor(private readonly deliver: (m: BusMessage) => void) {}
  async publish(m: BusMessage): Promise<void> { this.deliver(m); }
  async close(): Promise<void> {}
}

const NOTIFY_LIMIT = 7900;

export class PgBus implements Bus {
  private listener: pg.Client | undefined;
  private readonly pool: pg.Pool;
  private readonly table: string;
  private readonly topic: string;
  private closed = false;
  private down = false;

  private constructor(private readonly url: string, schema: string, private readonly deliver: (m: BusMessage) => void, private readonly warn: (m: string) => void) {
    this.pool = new pg.Pool({ connectionString: url, max: 2 });
    this.pool.on('error', () => {});
    this.table = `${quoteSchema(schema)}.ws_messages`;
    // NOTIFY channels are identifiers: one per store schema, so separate deployments stay apart.
    this.topic = `pw_ws_${schema.replace(/[^a-z0-9_]/gi, '_')}`.slice(0, 63);
  }

  static async open(url: string, schema: string, deliver: (m: BusMessage) => void, warn: (m: string) => void): Promise<PgBus> {
    const bus = new PgBus(url, schema, deliver, warn);
    await createUnderLock(bus.pool, bus.table, [
      `CREATE SCHEMA IF NOT EXISTS ${quoteSchema(schema)}`,
      `CREATE TABLE IF NOT EXISTS ${bus.table} (id bigserial PRIMARY KEY, payload json NOT NULL, at timestamptz NOT NULL DEFAULT now())`,
    ]);
    await bus.listen();
    return bus;
  }

  /** The LISTEN connection; when it is lost (the database restarts, the network goes) it is opened
   *  again with back-off, the loss and the return logged once each. Messages published while it is
   *  away do not reach this node (ws delivery is at most once). */
  private async listen(): Promise<void> {
    const c = new pg.Client({ connectionString: this.url });
    c.on('notification', (n) => { if (n.channel === this.topic && n.payload) void this.receive(n.payload); });
    const lost = (e?: Error) => {
      if (this.listener !== c || this.closed) return;
      this.listener = undefined;
      if (!this.down) { this.down = true; this.warn(`ws bus: lost the LISTEN connection (${e?.message ?? 'closed'}); reconnecting`); }
      c.end().catch(() => {});
      this.relisten(250);
    };
    c.on('error', lost);
    c.on('end', () => lost());
    try {
      await c.connect();
      await c.query(`LISTEN ${this.topic}`);
    } catch (e) {
      c.end().catch(() => {});
      throw e;
    }
    if (this.closed) { await c.end().catch(() => {}); return; }
    this.listener = c;
    if (this.down) { this.down = false; this.warn('ws bus: the LISTEN connection is back'); }
  }

  private relisten(wait: number): void {
    setTimeout(() => {
      if (this.closed) return;
      this.listen().catch(() => this.relisten(Math.min(wait * 2, 2000)));
    }, wait).unref();
  }

  private async receive(payload: string): Promise<void> {
    try {
      const m = JSON.parse(payload) as BusMessage | { ref: string };
      if ('ref' in m) {
        const r = await this.pool.query(`SELECT payload FROM ${this.table} WHERE id = $1`, [m.ref]);
        if (r.rows[0]) this.deliver(r.rows[0].payload as BusMessage);
      } else this.deliver(m);
    } catch (e) {
      this.warn(`ws bus: a message could not be read (${(e as Error).message})`);
    }
  }

  async publish(m: BusMessage): Promise<void> {
    if (this.closed) return;
    const text = JSON.stringify(m);
    if (Buffer.byteLength(text) <= NOTIFY_LIMIT) {
      await this.pool.query('SELECT pg_notify($1, $2)', [this.topic, text]);
      return;
    }
    // Large payloads go through the table; rows older than a minute were read by everyone listening.
    const r = await this.pool.query(`INSERT INTO ${this.table} (payload) VALUES ($1) RETURNING id`, [text]);
    await this.pool.query('SELECT pg_notify($1, $2)', [this.topic, JSON.stringify({ ref: String(r.rows[0].id) })]);
    await this.pool.query(`DELETE FROM ${this.table} WHERE at < now() - interval '1 minute'`);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([this.listener?.end(), this.pool.end()]);
  }
}
