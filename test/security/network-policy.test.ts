// Issue 9, finding 3: NetworkPolicy. Client address from the socket, or X-Forwarded-For behind a
// trusted proxy; IP, country and ASN rules (a real .mmdb read by `maxmind`); rate limits per client
// key in memory and in Postgres across nodes; inherit: false; evaluated before credentials and body.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type ServerOptions } from '../../runtime/server/app.ts';
import { openGeo, type Geo } from '../../runtime/network/geo.ts';
import { postgresLimiter } from '../../runtime/network/rate-limit-pg.ts';
import { clientIp } from '../../runtime/network/client-ip.ts';
import { ipList } from '../../runtime/network/ip-list.ts';
import { compileConfig } from '../../compiler/project.ts';
import { planOf, testEnv } from '../support/plans.ts';
import { writeMmdb } from '../support/mmdb-writer.ts';
import type { Plan } from '../../runtime/plan.ts';

const CONFIG = `
network:
  deny_ips: [198.51.100.0/24, 203.0.113.66/32]
interfaces:
  open:
    method: POST
    actions:
      - name: A
        input: { body: a|body| }
        output: http
  eu_only:
    method: GET
    network:
      allow_countries: [DE, FR]
      deny_asns: [64666]
    actions:
      - name: A
        input: eu
        output: http
  office:
    method: GET
    network:
      inherit: false
      allow_ips: [203.0.113.0/24]
    actions:
      - name: A
        input: office
        output: http
  limited:
    method: GET
    network:
      rate_limit: { requests: 2, per: 1m, by: "header:X-Client" }
    actions:
      - name: A
        input: limited
        output: http
`;

const NOW = 1_700_000_010_000; // 30 s into a minute window (epoch ms mod 60000): Retry-After is 30
const apps: Array<{ close(): Promise<unknown> }> = [];
let geo: Geo;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pw-geo-'));
  writeFileSync(join(dir, 'geo.mmdb'), writeMmdb({
    '203.0.113.0/24': { country: { iso_code: 'DE' }, autonomous_system_number: 64500 },
    '192.0.2.0/24': { country: { iso_code: 'US' }, autonomous_system_number: 64501 },
    '198.18.0.0/24': { country: { iso_code: 'FR' }, autonomous_system_number: 64666 },
  }));
  geo = await openGeo({ SERVICE__GEOIP_DB: join(dir, 'geo.mmdb') });
});
afterAll(async () => { for (const a of apps) await a.close(); });

async function serve(plan: Plan, o: Partial<ServerOptions> = {}) {
  const app = buildApp([plan], { env: testEnv(), network: { geo, trustedProxies: '127.0.0.1', now: () => NOW }, ...o });
  await app.listen({ port: 0, host: '127.0.0.1' });
  apps.push(app);
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}
const from = (ip: string, extra: Record<string, string> = {}) => ({ headers: { 'x-forwarded-for': `${ip}, 10.0.0.1`, ...extra } });

describe.each(['compiled', 'interpreted'] as const)('%s', (mode) => {
  let plan: Plan;
  let url = '';
  beforeAll(async () => {
    plan = await planOf('network.yaml', mode, CONFIG);
    // 10.0.0.1 is the client-side proxy chain entry our own proxy added: trusted too.
    url = await serve(plan, { network: { geo, trustedProxies: '127.0.0.1, 10.0.0.0/8', now: () => NOW } });
  });
  const status = async (path: string, init: RequestInit) => (await fetch(url + path, init)).status;

  it('config-wide deny_ips applies to every interface that inherits it', async () => {
    const r = await fetch(`${url}/open`, { method: 'POST', ...from('198.51.100.5') });
    expect(r.status).toBe(403);
    expect(await r.json()).toEqual({ error: { status: 403, message: 'forbidden by the network policy' } });
    expect(await status('/open', { method: 'POST', ...from('203.0.113.9') })).toBe(200);
    expect(await status('/open', { method: 'POST', ...from('203.0.113.66') })).toBe(403);
  });

  it('inherit: false drops the config-wide policy; allow_ips admits only the listed range', async () => {
    expect(await status('/office', from('203.0.113.66'))).toBe(200);
    expect(await status('/office', from('192.0.2.1'))).toBe(403);
  });

  it('country and ASN rules from the database; an unknown address fails an allow list', async () => {
    expect(await status('/eu_only', from('203.0.113.9'))).toBe(200);
    expect(await status('/eu_only', from('192.0.2.1'))).toBe(403);
    expect(await status('/eu_only', from('198.18.0.1'))).toBe(403); // FR, but a denied ASN
    expect(await status('/eu_only', from('100.100.100.100'))).toBe(403);
  });

  it('a rate limit per client key answers 429 with Retry-After; another key has its own budget', async () => {
    const as = (k: string) => from('203.0.113.9', { 'x-client': k });
    expect(await status('/limited', as(`${mode}-a`))).toBe(200);
    expect(await status('/limited', as(`${mode}-a`))).toBe(200);
    const over = await fetch(`${url}/limited`, as(`${mode}-a`));
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBe('30');
    expect(await over.json()).toEqual({ error: { status: 429, message: 'rate limit exceeded: 2 requests per 60 s' } });
    expect(await status('/limited', as(`${mode}-b`))).toBe(200);
  });

  it('runs before credentials and before the body is read', async () => {
    const locked = await serve(plan, { inbound: { apiKeys: ['k-0123456789abcdef'] } });
    const bad = { method: 'POST', body: '{not json', headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.5' } };
    expect((await fetch(`${locked}/open`, bad)).status).toBe(403);
    expect((await fetch(`${locked}/open`, { ...bad, headers: { ...bad.headers, 'x-forwarded-for': '203.0.113.9' } })).status).toBe(401);
  });

  it('X-Forwarded-For is ignored unless the peer is a trusted proxy', async () => {
    const direct = await serve(plan, { network: { geo, now: () => NOW } });
    expect((await fetch(`${direct}/office`, from('203.0.113.9'))).status).toBe(403); // the peer, 127.0.0.1, is the client
  });

  it('country rules without a database are refused at start', () => {
    expect(() => buildApp([plan], { env: testEnv() })).toThrow('a network policy has country rules but SERVICE__GEOIP_DB is not set (interface network.eu_only)');
  });
});

describe('client address', () => {
  it('walks X-Forwarded-For from the right, past trusted proxies only', () => {
    const t = ipList('127.0.0.1, 10.0.0.0/8', 't');
    expect(clientIp('127.0.0.1', '1.2.3.4, 5.6.7.8, 10.1.1.1', t)).toBe('5.6.7.8');
    expect(clientIp('::ffff:127.0.0.1', '5.6.7.8', t)).toBe('5.6.7.8');
    expect(clientIp('192.0.2.9', '5.6.7.8', t)).toBe('192.0.2.9');
    expect(clientIp('127.0.0.1', 'garbage', t)).toBe('127.0.0.1');
  });
});

describe('check time', () => {
  it('a bad CIDR or an unknown field is refused with its position', () => {
    const bad = compileConfig('n.yaml', 'network:\n  deny_ips: [10.0.0.0/40]\ninterfaces:\n  x:\n    actions:\n      - name: A\n        input: one\n');
    expect(bad.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`).join('\n')).toContain('2:');
    expect(bad.diagnostics.map((d) => d.message).join('\n')).toContain('invalid CIDR "10.0.0.0/40"');
    const unknown = compileConfig('n.yaml', 'network:\n  allow_ip: [10.0.0.0/8]\ninterfaces:\n  x:\n    actions:\n      - name: A\n        input: one\n');
    expect(unknown.ok).toBe(false);
    const misplaced = compileConfig('n.yaml', 'network:\n  inherit: false\ninterfaces:\n  x:\n    actions:\n      - name: A\n        input: one\n');
    expect(misplaced.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`)).toEqual(['2:3 inherit belongs to an interface\'s network (it drops this config-wide policy there)']);
    const tooShort = compileConfig('n.yaml', 'interfaces:\n  x:\n    network:\n      rate_limit: { requests: 1, per: 10ms }\n    actions:\n      - name: A\n        input: one\n');
    expect(tooShort.diagnostics.map((d) => d.message)).toEqual(['rate_limit.per must be at least 1s']);
  });
});

describe('rate limits across nodes (Postgres)', () => {
  const schema = `sec1_rl_${process.pid}_${Date.now()}`;
  const pool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:5432/test', max: 4 });
  afterAll(async () => { await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`); await pool.end(); });

  it('two nodes share one budget', async () => {
    const plan = await planOf('network.yaml', 'interpreted', CONFIG);
    const [a, b] = [await serve(plan, { network: { geo, trustedProxies: '127.0.0.1, 10.0.0.0/8', now: () => NOW, limiter: await postgresLimiter(pool, schema) } }),
      await serve(plan, { network: { geo, trustedProxies: '127.0.0.1, 10.0.0.0/8', now: () => NOW, limiter: await postgresLimiter(pool, schema) } })];
    const as = from('203.0.113.9', { 'x-client': 'shared' });
    expect((await fetch(`${a}/limited`, as)).status).toBe(200);
    expect((await fetch(`${b}/limited`, as)).status).toBe(200);
    const over = await fetch(`${a}/limited`, as);
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBe('30');
    const rows = await pool.query(`SELECT count FROM ${schema}.rate_limits WHERE key = 'h:shared'`);
    expect(rows.rows).toEqual([{ count: 3 }]);
  });

  it('nodes starting together each find the table (the catalog race: "type rate_limits already exists")', async () => {
    const fresh = `${schema}_race`;
    const pools = Array.from({ length: 6 }, () => new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:5432/test', max: 1 }));
    try {
      const limiters = await Promise.all(pools.map((p) => postgresLimiter(p, fresh)));
      const counts = await Promise.all(limiters.map((l) => l.hit('s', 'k', 100, 60_000, NOW)));
      expect(counts.map((v) => v.ok)).toEqual(Array(6).fill(true));
    } finally {
      await pool.query(`DROP SCHEMA IF EXISTS ${fresh} CASCADE`);
      await Promise.all(pools.map((p) => p.end()));
    }
  });
});
