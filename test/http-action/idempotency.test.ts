// Idempotency keys: one per action execution, the same on every retry attempt.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools, http } from '../../runtime/actions/http.ts';
import { ctx, startUpstream } from './helpers.ts';

describe('idempotency', () => {
  let up: Awaited<ReturnType<typeof startUpstream>>;
  beforeAll(async () => { up = await startUpstream({ '/pay': (_q, res) => res.end('ok') }); });
  afterAll(async () => { await closeHttpPools(); await up.close(); });
  const call = (extra: Record<string, unknown>, c = ctx()) => http({ url: `${up.url}/pay`, method: 'POST', body: { amount: 1 }, ...extra }, c);

  it('sends the executionId as Idempotency-Key, identical across attempts of one execution', async () => {
    await call({ idempotency: {} }, ctx({ executionId: 'e-42', attempt: 1 }));
    await call({ idempotency: {} }, ctx({ executionId: 'e-42', attempt: 2 }));
    await call({ idempotency: {} }, ctx({ executionId: 'e-43', attempt: 1 }));
    const keys = up.received.slice(-3).map((r) => r.headers['idempotency-key']);
    expect(keys).toEqual(['e-42', 'e-42', 'e-43']);
  });

  it('accepts true as shorthand and sends nothing when unset or false', async () => {
    await call({ idempotency: true }, ctx({ executionId: 'e-1' }));
    expect(up.last().headers['idempotency-key']).toBe('e-1');
    await call({});
    expect(up.last().headers['idempotency-key']).toBeUndefined();
    await call({ idempotency: false });
    expect(up.last().headers['idempotency-key']).toBeUndefined();
  });

  it('uses a configured key and header name', async () => {
    await call({ idempotency: { key: 'order-7', header: 'X-Request-Id' } }, ctx({ executionId: 'e-2' }));
    expect(up.last().headers['x-request-id']).toBe('order-7');
    expect(up.last().headers['idempotency-key']).toBeUndefined();
  });

  it('lets a header set in headers win', async () => {
    await call({ idempotency: {}, headers: { 'Idempotency-Key': 'manual' } });
    expect(up.last().headers['idempotency-key']).toBe('manual');
  });

  it('refuses an empty key or a bad header name before sending', async () => {
    const n = up.received.length;
    expect((await call({ idempotency: { key: '' } })).error).toBe('http.idempotency.key is empty');
    expect((await call({ idempotency: { header: 'bad header' } })).error).toMatch(/not a valid header name/);
    expect(up.received.length).toBe(n);
  });
});
