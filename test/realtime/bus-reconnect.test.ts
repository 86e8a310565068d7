// The ws bus between nodes (Postgres LISTEN/NOTIFY) when the database goes away and comes back: the
// LISTEN connection is opened again by itself, so fan-out resumes; the loss and the return are one
// line each. (Before: the listener stayed dead and no ws_publish reached this node again.)
import { afterAll, describe, expect, it } from 'vitest';
import { PgBus, type BusMessage } from '../../runtime/realtime/bus.ts';
import { pgProxy } from '../support/pg-proxy.ts';
import { dropSchema, schemaName, until } from '../durable/helpers.ts';

const schema = schemaName('busre');
afterAll(async () => { await dropSchema(schema); });

describe('the ws bus after a store outage', () => {
  it('reopens its LISTEN connection and delivers again', async () => {
    const proxy = await pgProxy();
    const got: BusMessage[] = [];
    const warnings: string[] = [];
    const bus = await PgBus.open(proxy.url(), schema, (m) => got.push(m), (w) => warnings.push(w));
    try {
      await bus.publish({ channel: 'c', data: 1 });
      await until(() => got.length === 1 || undefined);
      await proxy.cut();
      await expect(bus.publish({ channel: 'c', data: 2 })).rejects.toThrow();
      await proxy.restore();
      // Publishes again once its pool reconnects; delivered once the listener is back.
      await until(async () => { await bus.publish({ channel: 'c', data: 3 }).catch(() => {}); await new Promise((r) => setTimeout(r, 100)); return got.some((m) => m.data === 3) || undefined; }, 15_000);
      expect(warnings.filter((w) => w.includes('lost the LISTEN connection'))).toHaveLength(1);
      expect(warnings.filter((w) => w.includes('LISTEN connection is back'))).toHaveLength(1);
    } finally {
      await bus.close();
      await proxy.close();
    }
  }, 30_000);
});
