// discover with the dns backend against a UDP DNS server the test starts (SERVICE__DNS_SERVERS points
// the resolver at it), in both paths: A and AAAA with the action's port or name:port, SRV with its
// targets resolved and ports from the records, exclude_self, a missing name, caching, and a resolver
// that does not answer (a clear error naming the action, retried).
import dgram from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearDiscoverCache } from '../../runtime/actions/discover/cache.ts';
import { members, RETRY_TWICE } from './run.ts';
import { dnsServer } from './servers.ts';

let dns: Awaited<ReturnType<typeof dnsServer>>;
beforeAll(async () => {
  dns = await dnsServer({
    'api.svc.test': { A: ['10.1.0.2', '10.1.0.1'], AAAA: ['fd00::1'] },
    'v4only.svc.test': { A: ['10.2.0.1'] },
    '_http._tcp.api.svc.test': { SRV: [
      { priority: 20, weight: 1, port: 9002, target: 'b.api.svc.test' },
      { priority: 10, weight: 5, port: 9001, target: 'a.api.svc.test' },
    ] },
    'a.api.svc.test': { A: ['10.3.0.1'] },
    'b.api.svc.test': { A: ['10.3.0.2'], AAAA: ['fd00::2'] },
  });
  process.env.SERVICE__DNS_SERVERS = dns.server;
});
afterAll(async () => { delete process.env.SERVICE__DNS_SERVERS; await dns.close(); });


describe('discover: dns', () => {
  it('A and AAAA records: a bare name takes the action\'s port, IPv6 bracketed in the url', async () => {
    const r = await members('{ dns: { name: api.svc.test }, port: 8080, cache_ttl_secs: 0 }');
    expect(r.body.Members).toEqual([
      { name: 'api.svc.test', address: '10.1.0.1', port: 8080, url: 'http://10.1.0.1:8080', source: 'dns' },
      { name: 'api.svc.test', address: '10.1.0.2', port: 8080, url: 'http://10.1.0.2:8080', source: 'dns' },
      { name: 'api.svc.test', address: 'fd00::1', port: 8080, url: 'http://[fd00::1]:8080', source: 'dns' },
    ]);
  });

  it('name:port is honoured over the action\'s port; exclude_self drops this node', async () => {
    const r = await members('{ dns: { name: "api.svc.test:9443", exclude_self: 10.1.0.2 }, port: 8080, scheme: https, cache_ttl_secs: 0 }');
    expect(r.body.Members.map((m: any) => m.url)).toEqual(['https://10.1.0.1:9443', 'https://[fd00::1]:9443']);
  });

  it('SRV records: targets resolved, ports from the records, priority order', async () => {
    const r = await members('{ dns: { name: _http._tcp.api.svc.test }, port: 1, cache_ttl_secs: 0 }');
    expect(r.body.Members).toEqual([
      { name: 'a.api.svc.test', address: '10.3.0.1', port: 9001, url: 'http://10.3.0.1:9001', source: 'dns' },
      { name: 'b.api.svc.test', address: '10.3.0.2', port: 9002, url: 'http://10.3.0.2:9002', source: 'dns' },
      { name: 'b.api.svc.test', address: 'fd00::2', port: 9002, url: 'http://[fd00::2]:9002', source: 'dns' },
    ]);
  });

  it('a name with no records is an empty result, or a failure with fail_when_empty', async () => {
    expect((await members('{ dns: { name: missing.svc.test }, cache_ttl_secs: 0 }')).body).toEqual({ Members: [] });
    const r = await members('{ dns: { name: missing.svc.test }, fail_when_empty: true }');
    expect(r.status).toBe(500);
    expect(r.body.error.detail).toBe('discover: no members found (dns) and fail_when_empty is set');
  });

  it('a second call within cache_ttl_secs does not query the resolver; cache_ttl_secs: 0 always does', async () => {
    clearDiscoverCache();
    const asked = () => dns.seen.filter((q) => q.endsWith('v4only.svc.test')).length;
    const before = asked();
    await members('{ dns: { name: v4only.svc.test }, port: 80 }');
    const once = asked() - before;
    expect(once).toBe(2); // A and AAAA, by the first path; the second path was served from the cache
    await members('{ dns: { name: v4only.svc.test }, port: 80 }');
    expect(asked() - before).toBe(once);
    // Another resolved config is another key.
    await members('{ dns: { name: v4only.svc.test }, port: 81 }');
    expect(asked() - before).toBe(2 * once);
    await members('{ dns: { name: v4only.svc.test }, port: 80, cache_ttl_secs: 0 }');
    expect(asked() - before).toBe(4 * once); // both paths asked
  });

  it('a resolver that does not answer: a clear error naming the action, retried, 504', async () => {
    // A UDP socket that reads queries and never answers.
    const mute = dgram.createSocket('udp4');
    let queries = 0;
    mute.on('message', () => { queries++; });
    await new Promise<void>((r) => mute.bind(0, '127.0.0.1', r));
    process.env.SERVICE__DNS_SERVERS = `127.0.0.1:${mute.address().port}`;
    try {
      // Each attempt waits out the resolver's own timeout (about 3 s): both paths at once, not one after the other.
      const r = await members('{ dns: { name: api.svc.test }, cache_ttl_secs: 0 }', { extra: RETRY_TWICE, concurrent: true });
      expect(r.status).toBe(504);
      expect(r.body.error).toMatchObject({ message: 'action "Members" failed', action: 'Members' });
      expect(r.body.error.detail).toMatch(/^discover: dns A query for "api\.svc\.test" failed: ETIMEOUT \(no answer from the resolver\)$/);
      expect(r.attempts).toBe(2);
      expect(queries).toBeGreaterThanOrEqual(4);
    } finally {
      process.env.SERVICE__DNS_SERVERS = dns.server;
      await new Promise<void>((r) => mute.close(() => r()));
    }
  }, 40_000);
});
