// Transport failures and their retry classes: connect (never reached the server), timeout, other.
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools, http } from '../../runtime/actions/http.ts';
import { classify, SendError } from '../../runtime/actions/http/transport-error.ts';
import { closedPort, ctx, hangingPort, startUpstream } from './helpers.ts';

describe('transport failures', () => {
  let up: Awaited<ReturnType<typeof startUpstream>>;
  let hang: Awaited<ReturnType<typeof hangingPort>>;
  const stalled: ServerResponse[] = [];
  beforeAll(async () => {
    hang = await hangingPort();
    up = await startUpstream({
      '/silent': (_q, res) => { stalled.push(res); }, // never answers
      '/slow-body': (_q, res) => { res.writeHead(200); res.write('partial'); stalled.push(res); },
      '/reset': (q) => { q.socket.destroy(); },
      '/cut': (q, res) => { res.writeHead(200, { 'content-length': '100' }); res.write('abc', () => q.socket.destroy()); },
    });
  });
  afterAll(async () => { stalled.forEach((r) => r.destroy()); await closeHttpPools(); await up.close(); await hang.close(); });

  it('classifies a refused connection as connect, with a clear message', async () => {
    const port = await closedPort();
    const out = await http({ url: `http://127.0.0.1:${port}/x?k=secret` }, ctx());
    expect(out).toMatchObject({ ok: false, failure: { kind: 'transport', cls: 'connect' } });
    expect(out.error).toBe(`connect ECONNREFUSED 127.0.0.1:${port} (GET http://127.0.0.1:${port}/x)`);
    expect(out.status).toBeUndefined();
  });

  it('classifies connect_timeout as connect', async () => {
    const t0 = Date.now();
    const out = await http({ url: `http://127.0.0.1:${hang.port}/x`, connect_timeout: '200ms' }, ctx());
    expect(out.failure).toEqual({ kind: 'transport', cls: 'connect' });
    expect(out.error).toMatch(/Connect Timeout Error/);
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it('classifies an overall timeout that fires while still connecting as connect', async () => {
    const out = await http({ url: `http://127.0.0.1:${hang.port}/y`, timeout: 200 }, ctx());
    expect(out.failure).toEqual({ kind: 'transport', cls: 'connect' });
    expect(out.error).toBe(`timed out after 200ms before the connection was established (GET http://127.0.0.1:${hang.port}/y)`);
  });

  it('classifies a timeout waiting for headers or body after sending as timeout', async () => {
    const out = await http({ url: `${up.url}/silent`, timeout: '300ms' }, ctx());
    expect(out).toMatchObject({ ok: false, failure: { kind: 'transport', cls: 'timeout' } });
    expect(out.error).toBe(`timed out after 300ms (GET ${up.url}/silent)`);
    const body = await http({ url: `${up.url}/slow-body`, timeout: '0.3s' }, ctx());
    expect(body).toMatchObject({ failure: { kind: 'transport', cls: 'timeout' }, status: 200 });
  });

  it('treats the action signal timing out like the timeout setting', async () => {
    const out = await http({ url: `${up.url}/silent` }, ctx({ signal: AbortSignal.timeout(200) }));
    expect(out.failure).toEqual({ kind: 'transport', cls: 'timeout' });
  });

  it('classifies a cancelled run as other', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error('run cancelled')), 100);
    const out = await http({ url: `${up.url}/silent` }, ctx({ signal: ac.signal }));
    expect(out).toMatchObject({ failure: { kind: 'transport', cls: 'other' }, error: `run cancelled (GET ${up.url}/silent)` });
  });

  it('classifies a reset before any response as connect, a cut-off body as other', async () => {
    expect((await http({ url: `${up.url}/reset`, method: 'POST', body: {} }, ctx())).failure)
      .toEqual({ kind: 'transport', cls: 'connect' });
    const cut = await http({ url: `${up.url}/cut` }, ctx());
    expect(cut).toMatchObject({ failure: { kind: 'transport', cls: 'other' }, status: 200 });
  });

  it('rejects a malformed timeout before sending', async () => {
    const out = await http({ url: `${up.url}/silent`, timeout: 'soon' }, ctx());
    expect(out).toMatchObject({ ok: false, failure: { kind: 'other' } });
    expect(out.error).toMatch(/invalid duration "soon"/);
  });

  it('maps DNS and unreachable errors to connect (unit: no DNS traffic in tests)', () => {
    const err = (code: string) => Object.assign(new Error(code), { code });
    for (const code of ['ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH'])
      expect(classify(new SendError(err(code), { sent: false, aborted: false }))).toBe('connect');
    expect(classify(new SendError(err('UND_ERR_HEADERS_TIMEOUT'), { sent: true, aborted: false }))).toBe('timeout');
    expect(classify(new SendError(err('CERT_HAS_EXPIRED'), { sent: false, aborted: false }))).toBe('other');
  });
});
