// Issue 9, finding 1: the operator restricts where outbound calls go. Checked on the resolved
// address of every connection (names and IP literals, the proxy hop too); managed mode denies private
// and loopback ranges unless an allowed CIDR covers them. Both paths, loopback only.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { planOf, serveOn, testEnv } from '../support/plans.ts';
import { ctx, startUpstream } from '../http-action/helpers.ts';
import { http } from '../../runtime/actions/http.ts';
import { ipList, hasAddress } from '../../runtime/network/ip-list.ts';
import { outboundPolicy, pinOutboundPolicy, refusal, unpinOutboundPolicy } from '../../runtime/network/outbound.ts';

const CONFIG = `
interfaces:
  fixed:
    method: GET
    actions:
      - name: Call
        http:
          url: a|var::API|/echo
          bearer_auth: a|secret::TOKEN|
        output: http
  callback:
    method: POST
    actions:
      - name: Call
        http:
          url: a|body::callback|
          bearer_auth: a|secret::TOKEN|
        output: http
`;

let up: Awaited<ReturnType<typeof startUpstream>>;
const apps: Array<{ close(): Promise<unknown> }> = [];
const saved = { ...process.env };
beforeAll(async () => { up = await startUpstream({ '/echo': (_q, res) => res.end('{"ok":true}') }); });
afterEach(async () => {
  for (const k of ['SERVICE__MANAGED_MODE', 'SERVICE__OUTBOUND_ALLOW', 'SERVICE__OUTBOUND_DENY']) {
    if (saved[k] === undefined) delete process.env[k]; else process.env[k] = saved[k];
  }
  await closeHttpPools(); // keep-alive sockets were vetted under the previous policy
});
afterAll(async () => { for (const a of apps) await a.close(); await up.close(); });

const port = () => new URL(up.url).port;

describe.each(['compiled', 'interpreted'] as const)('%s', (mode) => {
  const serve = async (api: string) => {
    // `callback` sends the token to a request-chosen URL, which check refuses (request-values-check.test.ts):
    // the runtime policy is tested here as the second line, on the config built without check.
    const s = await serveOn([await planOf('outbound.yaml', mode, CONFIG, { unchecked: true })], testEnv({ API: api }, { TOKEN: 'tok-secret' }));
    apps.push(s.app);
    return s.url;
  };
  const sent = () => up.received.length;

  it('without settings, loopback is reachable (self-hosted default)', async () => {
    const url = await serve(up.url);
    expect((await fetch(`${url}/fixed`)).status).toBe(200);
  });

  it('managed mode refuses loopback by IP literal and by name (after resolution), with 403 and nothing sent', async () => {
    process.env.SERVICE__MANAGED_MODE = '1';
    for (const api of [up.url, `http://localhost:${port()}`]) {
      const url = await serve(api);
      const before = sent();
      const r = await fetch(`${url}/fixed`);
      expect(r.status).toBe(403);
      expect(((await r.json()) as { error: { message: string } }).error.message).toMatch(/outbound call refused: .* private, loopback or link-local address, denied in managed mode/);
      expect(sent()).toBe(before);
    }
  });

  it('a request-chosen callback URL cannot carry the bearer token to a local server', async () => {
    process.env.SERVICE__MANAGED_MODE = '1';
    const url = await serve(up.url);
    const before = sent();
    const r = await fetch(`${url}/callback`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ callback: `http://127.0.0.1:${port()}/echo?h=` }) });
    expect(r.status).toBe(403);
    expect(sent()).toBe(before);
  });

  it('an allowed CIDR opens a private range in managed mode; a host-name allow entry does not', async () => {
    process.env.SERVICE__MANAGED_MODE = '1';
    process.env.SERVICE__OUTBOUND_ALLOW = 'localhost';
    const byName = await serve(`http://localhost:${port()}`);
    expect((await fetch(`${byName}/fixed`)).status).toBe(403);
    await closeHttpPools();
    process.env.SERVICE__OUTBOUND_ALLOW = '127.0.0.0/8';
    expect((await fetch(`${byName}/fixed`)).status).toBe(200);
  });

  it('the deny list and the allow list apply outside managed mode too', async () => {
    process.env.SERVICE__OUTBOUND_DENY = 'localhost';
    const byName = await serve(`http://localhost:${port()}`);
    expect((await fetch(`${byName}/fixed`)).status).toBe(403);
    await closeHttpPools();
    delete process.env.SERVICE__OUTBOUND_DENY;
    process.env.SERVICE__OUTBOUND_ALLOW = 'api.example.com, 10.0.0.0/8';
    const literal = await serve(up.url);
    const r = await fetch(`${literal}/fixed`);
    expect(r.status).toBe(403);
    expect(((await r.json()) as { error: { message: string } }).error.message).toContain('127.0.0.1 is not in SERVICE__OUTBOUND_ALLOW');
  });
});

describe('the proxy hop', () => {
  it('a denied proxy is refused, and a proxied target is resolved and checked too', async () => {
    process.env.SERVICE__OUTBOUND_DENY = '127.0.0.1/32';
    const viaDenied = await http({ url: 'http://example.invalid/x', proxy: 'http://127.0.0.1:9' }, ctx());
    expect(viaDenied).toMatchObject({ ok: false, failure: { kind: 'refused', status: 403 } });
    expect(viaDenied.error).toMatch(/^outbound call refused: 127\.0\.0\.1 is denied by SERVICE__OUTBOUND_DENY/);
    const toDenied = await http({ url: 'http://localhost:9/x', proxy: 'http://127.0.0.2:9' }, ctx());
    expect(toDenied).toMatchObject({ ok: false, failure: { kind: 'refused', status: 403 } });
    expect(toDenied.error).toMatch(/^outbound call refused: localhost is denied/);
  });
});

describe('policy rules', () => {
  it('IPv4-mapped IPv6 and wildcard hosts are matched', () => {
    const p = outboundPolicy({ SERVICE__MANAGED_MODE: '1', SERVICE__OUTBOUND_DENY: '*.internal.test' });
    expect(refusal(p, 'x', '::ffff:127.0.0.1')).toMatch(/managed mode/);
    expect(refusal(p, 'x', '169.254.169.254')).toMatch(/managed mode/);
    expect(refusal(p, 'x', 'fe80::1')).toMatch(/managed mode/);
    expect(refusal(p, 'db.internal.test', '93.184.216.34')).toMatch(/SERVICE__OUTBOUND_DENY/);
    expect(refusal(p, 'example.com', '93.184.216.34')).toBeUndefined();
    expect(hasAddress(ipList('10.0.0.0/8', 't'), '10.2.3.4')).toBe(true);
    expect(() => ipList('10.0.0.0/33', 'X')).toThrow('X: invalid CIDR "10.0.0.0/33"');
    expect(() => ipList('http://x', 'X')).toThrow(/is not an IP address, CIDR or host name/);
  });
});

describe('a server reads the policy once, at its start', () => {
  it('keeps the pinned policy when the environment changes afterwards, and reads it again once unpinned', async () => {
    try {
      pinOutboundPolicy({ SERVICE__OUTBOUND_DENY: '127.0.0.9/32' });
      process.env.SERVICE__OUTBOUND_DENY = '127.0.0.8/32';
      const pinned = await http({ url: 'http://127.0.0.9:9/x' }, ctx());
      expect(pinned.error).toMatch(/^outbound call refused: 127\.0\.0\.9 is denied by SERVICE__OUTBOUND_DENY/);
      const other = await http({ url: 'http://127.0.0.8:9/x' }, ctx());
      expect(other.failure).not.toMatchObject({ kind: 'refused' });
      unpinOutboundPolicy();
      const now = await http({ url: 'http://127.0.0.8:9/x' }, ctx());
      expect(now.error).toMatch(/^outbound call refused: 127\.0\.0\.8 is denied/);
    } finally {
      unpinOutboundPolicy();
      delete process.env.SERVICE__OUTBOUND_DENY;
    }
  });
});
