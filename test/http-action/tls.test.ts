// TLS options against a local https server whose certificate is signed by a test CA.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools, http } from '../../runtime/actions/http.ts';
import { getDispatcher } from '../../runtime/actions/http/pool.ts';
import { tlsOptions } from '../../runtime/actions/http/tls.ts';
import { makeCerts, opensslMissing, type TestCerts } from './certs.ts';
import { startForwardProxy } from './forward-proxy.ts';
import { ctx } from './helpers.ts';

describe.skipIf(opensslMissing)(`TLS options${opensslMissing ? ` (skipped: ${opensslMissing})` : ''}`, () => {
  let certs: TestCerts, server: Server, url: string;
  let proxy: Awaited<ReturnType<typeof startForwardProxy>>;
  beforeAll(async () => {
    certs = makeCerts();
    server = createServer({ key: certs.key, cert: certs.cert }, (_q, res) => { res.setHeader('content-type', 'application/json'); res.end('{"secure":true}'); });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
    proxy = await startForwardProxy();
  });
  afterAll(async () => { await closeHttpPools(); server?.closeAllConnections(); await new Promise((r) => server?.close(r)); await proxy?.close(); });

  it('rejects an untrusted certificate by default', async () => {
    const out = await http({ url }, ctx());
    expect(out).toMatchObject({ ok: false, failure: { kind: 'transport', cls: 'other' } });
    expect(out.error).toMatch(/certificate/i);
  });

  it('accept_invalid_certs skips verification, without loosening other calls to the same origin', async () => {
    expect(await http({ url, accept_invalid_certs: true }, ctx())).toMatchObject({ ok: true, data: { secure: true } });
    expect((await http({ url }, ctx())).ok).toBe(false);
  });

  it('ca pins the trust anchors; the wrong CA fails', async () => {
    expect(await http({ url, ca: certs.caPem }, ctx())).toMatchObject({ ok: true, status: 200 });
    expect((await http({ url, ca: certs.otherCaPem }, ctx())).error).toMatch(/certificate/i);
  });

  it('root_certificates add trust anchors; a bundle in ca may hold several certificates', async () => {
    expect((await http({ url, root_certificates: [certs.otherCaPem, certs.caPem] }, ctx())).ok).toBe(true);
    expect((await http({ url, ca: `${certs.otherCaPem}\n${certs.caPem}` }, ctx())).ok).toBe(true);
  });

  it('applies the TLS options to the upstream through a CONNECT tunnel', async () => {
    const out = await http({ url, ca: certs.caPem, proxy: proxy.url }, ctx());
    expect(out).toMatchObject({ ok: true, data: { secure: true } });
    expect(proxy.seen[proxy.seen.length - 1]).toMatchObject({ method: 'CONNECT', url: new URL(url).host });
  });

  it('makes the options of one setting once: the same object and pool on every request, another for another setting', () => {
    const a = tlsOptions({ url, ca: certs.caPem });
    expect(tlsOptions({ url: 'https://elsewhere/', ca: certs.caPem })).toBe(a);
    expect(a?.ca).toEqual([certs.caPem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/)![0]]);
    const other = tlsOptions({ ca: certs.otherCaPem });
    expect(other).not.toBe(a);
    const origin = new URL(url).origin;
    expect(getDispatcher(origin, { tls: a })).toBe(getDispatcher(origin, { tls: tlsOptions({ ca: certs.caPem }) }));
    expect(getDispatcher(origin, { tls: other })).not.toBe(getDispatcher(origin, { tls: a }));
    expect(getDispatcher(origin, { tls: tlsOptions({ root_certificates: [certs.caPem] }) })).not.toBe(getDispatcher(origin, { tls: a }));
    expect(tlsOptions({ accept_invalid_certs: false, ca: null })).toBeUndefined();
    expect(tlsOptions({})).toBeUndefined();
  });

  it('refuses a malformed PEM on every request (a refused setting is not remembered)', () => {
    const bad = { ca: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----' };
    expect(() => tlsOptions(bad)).toThrow(/^http\.ca is not a valid certificate/);
    expect(() => tlsOptions(bad)).toThrow(/^http\.ca is not a valid certificate/);
    // A value JSON cannot write as itself is checked, not answered by a remembered setting.
    expect(tlsOptions({ root_certificates: [] })).toBeUndefined();
    expect(() => tlsOptions({ accept_invalid_certs: Number.NaN, root_certificates: [] })).toThrow('http.accept_invalid_certs must be a boolean');
  });

  it('refuses malformed PEM before connecting', async () => {
    expect((await http({ url, root_certificates: ['-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----'] }, ctx())).error)
      .toMatch(/^http\.root_certificates\[0\] is not a valid certificate/);
    expect((await http({ url, root_certificates: 'x' }, ctx())).error).toBe('http.root_certificates must be an array of PEM strings');
  });
});
