// A bundle evaluates undici, pg and maxmind on first use (compiler/bundle/lazy.ts, bundle/undici.ts)
// and requires semver only if a plugin asks (bundle/patches.ts): all three paths still work from
// the standalone server.mjs: a Postgres store opened at start, a geo database read for a country
// rule, and an outbound HTTP request through the pool. Its upstream comes from a file
// (SERVICE__VAR__UPSTREAM_FILE) read again on SIGHUP: the bundle's reload.
import { createServer, type Server } from 'node:http';
import { until } from '../durable/helpers.ts';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveBundle } from '../support/bundle.ts';
import { writeMmdb } from '../support/mmdb-writer.ts';
import { PG_URL, dropSchema } from '../store/pg.ts';

const config = `
interfaces:
  eu_only:
    method: GET
    network:
      allow_countries: [DE]
    actions:
      - name: Up
        url: a|var::UPSTREAM|/item
        output: http
`;

const schema = `lazy_bundle_${process.pid}`;
const stops: Array<() => unknown> = [];
let upstream: Server, second: Server;
let url = '';
let upstreamFile = '';
const bundle: { send?: (s: NodeJS.Signals) => void; stdout?: () => string } = {};

async function answering(body: string): Promise<Server> {
  const s = createServer((_req, res) => { res.setHeader('content-type', 'application/json'); res.end(body); });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return s;
}
const portOf = (s: Server) => (s.address() as { port: number }).port;

beforeAll(async () => {
  upstream = await answering('{"id":7}');
  second = await answering('{"id":8}');
  const dir = mkdtempSync(join(tmpdir(), 'pw-lazy-'));
  upstreamFile = join(dir, 'upstream');
  writeFileSync(upstreamFile, `http://127.0.0.1:${portOf(upstream)}\n`);
  writeFileSync(join(dir, 'geo.mmdb'), writeMmdb({ '203.0.113.0/24': { country: { iso_code: 'DE' } }, '192.0.2.0/24': { country: { iso_code: 'US' } } }));
  url = await serveBundle('lazy.yaml', config, {
    SERVICE__VAR__UPSTREAM_FILE: upstreamFile,
    SERVICE__DATABASE_URL: PG_URL, SERVICE__DATABASE_SCHEMA: schema,
    SERVICE__GEOIP_DB: join(dir, 'geo.mmdb'), SERVICE__TRUSTED_PROXIES: '127.0.0.1',
  }, stops, bundle);
}, 120_000);

afterAll(async () => {
  for (const s of stops) s();
  upstream?.close();
  second?.close();
  await dropSchema(schema);
});

describe('a bundle with lazily evaluated packages', () => {
  it('opens its Postgres store, applies the geo rule and calls upstream through the pool', async () => {
    const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });
    const ok = await fetch(`${url}/eu_only`, from('203.0.113.9'));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ id: 7 });
    expect((await fetch(`${url}/eu_only`, from('192.0.2.1'))).status).toBe(403);
  });

  it('SIGHUP reloads: the variable\'s file is read again and new requests use it', async () => {
    writeFileSync(upstreamFile, `http://127.0.0.1:${portOf(second)}\n`);
    bundle.send!('SIGHUP');
    await until(() => bundle.stdout!().includes('"reloaded: ') || undefined, 30_000);
    const res = await fetch(`${url}/eu_only`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(await res.json()).toEqual({ id: 8 });
  });
});
