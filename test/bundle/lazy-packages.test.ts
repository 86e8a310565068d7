// A bundle evaluates undici, pg and maxmind on first use (compiler/bundle/lazy.ts, bundle/undici.ts)
// and requires semver only if a plugin asks (bundle/patches.ts): all three paths still work from
// the standalone server.mjs: a Postgres store opened at start, a geo database read for a country
// rule, and an outbound HTTP request through the pool.
import { createServer, type Server } from 'node:http';
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
let upstream: Server;
let url = '';

beforeAll(async () => {
  upstream = createServer((_req, res) => { res.setHeader('content-type', 'application/json'); res.end('{"id":7}'); });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const port = (upstream.address() as { port: number }).port;
  const dir = mkdtempSync(join(tmpdir(), 'pw-lazy-'));
  writeFileSync(join(dir, 'geo.mmdb'), writeMmdb({ '203.0.113.0/24': { country: { iso_code: 'DE' } }, '192.0.2.0/24': { country: { iso_code: 'US' } } }));
  url = await serveBundle('lazy.yaml', config, {
    SERVICE__VAR__UPSTREAM: `http://127.0.0.1:${port}`,
    SERVICE__DATABASE_URL: PG_URL, SERVICE__DATABASE_SCHEMA: schema,
    SERVICE__GEOIP_DB: join(dir, 'geo.mmdb'), SERVICE__TRUSTED_PROXIES: '127.0.0.1',
  }, stops);
}, 120_000);

afterAll(async () => {
  for (const s of stops) s();
  upstream?.close();
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
});
