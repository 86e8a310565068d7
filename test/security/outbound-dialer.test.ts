// Issue 29, "One outbound dialer": the agent's model url and MCP server urls, and SQL connection
// strings, go through the outbound policy (SERVICE__OUTBOUND_ALLOW/DENY, managed mode) like http;
// a refused destination is a 403 naming the setting, and nothing reaches it (no credential sent).
// Database pools are bounded by SERVICE__DATABASE_MAX_POOLS. Both paths, real listeners on loopback,
// the real Postgres at 127.0.0.1:5432.
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from 'node:net';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runBoth } from '../support/run-both.ts';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { closeDialerAgent } from '../../runtime/network/dialer.ts';
import { closeDatabasePools, driverFor, openPools } from '../../runtime/actions/database/pools.ts';
import { dbSettings } from '../../runtime/actions/database/settings.ts';

const PG = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SETTINGS = ['SERVICE__OUTBOUND_DENY', 'SERVICE__OUTBOUND_ALLOW', 'SERVICE__MANAGED_MODE', 'SERVICE__DATABASE_MAX_POOLS'];
const saved = Object.fromEntries(SETTINGS.map((k) => [k, process.env[k]]));
const DENY_LOOPBACK = '127.0.0.0/8,::1';

/** A loopback HTTP server that records every request that reached it, with its headers. */
interface Recorder { url: string; seen: IncomingHttpHeaders[]; server: Server }
async function recorder(): Promise<Recorder> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createHttpServer((req, res) => {
    seen.push(req.headers);
    req.resume();
    res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"recorder"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

/** A loopback TCP listener that counts connections (any protocol). */
async function listener(host = '127.0.0.1', port = 0): Promise<{ port: number; connections: () => number; server: TcpServer }> {
  let n = 0;
  const server = createTcpServer((s) => { n++; s.destroy(); });
  await new Promise<void>((r) => server.listen(port, host, r));
  return { port: (server.address() as AddressInfo).port, connections: () => n, server };
}

let model: Recorder;
let mcp: Recorder;
beforeAll(async () => { model = await recorder(); mcp = await recorder(); });
afterAll(async () => {
  await Promise.all([model, mcp].map((r) => new Promise((done) => r.server.close(done))));
  await closeDatabasePools();
});
afterEach(async () => {
  for (const k of SETTINGS) { if (saved[k] === undefined) delete process.env[k]; else process.env[k] = saved[k]; }
  // Keep-alive sockets were vetted under the previous policy.
  await Promise.all([closeHttpPools(), closeDialerAgent()]);
});

const failure = (r: Awaited<ReturnType<typeof runBoth>>) => JSON.stringify(r.response.body);

describe('agent: the model url chosen by the request', () => {
  const CONFIG = `
interfaces:
  ask:
    method: POST
    show_error_detail: true
    actions:
      - name: Agent
        agent:
          url: a|body::u|
          model: m
          headers: { authorization: "Bearer a|var::MODEL_KEY|" }
          input: hi
        output: http
`;
  const KEY = 'model-key-0123456789';

  it('is refused at a denied loopback address (deny list and managed mode), by IP and by name, and the credential is never sent', async () => {
    const port = new URL(model.url).port;
    for (const [setting, value, reason] of [
      ['SERVICE__OUTBOUND_DENY', DENY_LOOPBACK, /is denied by SERVICE__OUTBOUND_DENY/],
      ['SERVICE__MANAGED_MODE', '1', /private, loopback or link-local address, denied in managed mode/],
    ] as const) {
      process.env[setting] = value;
      for (const u of [`${model.url}/v1/chat/completions`, `http://localhost:${port}/v1/chat/completions`]) {
        const r = await runBoth(CONFIG, 'ask', { body: { u } }, { MODEL_KEY: KEY });
        expect(r.response.status).toBe(403);
        expect(failure(r)).toMatch(/agent: outbound call refused: /);
        expect(failure(r)).toMatch(reason);
      }
      delete process.env[setting];
      await closeHttpPools();
    }
    expect(model.seen).toHaveLength(0);
  });

  it('reaches the same server when the policy allows it, with the credential (the control)', async () => {
    const r = await runBoth(CONFIG, 'ask', { body: { u: `${model.url}/v1/chat/completions` } }, { MODEL_KEY: KEY });
    expect(r.response.status).not.toBe(403);
    expect(model.seen.length).toBeGreaterThan(0);
    expect(model.seen.every((h) => h.authorization === `Bearer ${KEY}`)).toBe(true);
    model.seen.length = 0;
  });
});

describe('agent: an MCP server url chosen by the request', () => {
  const CONFIG = `
interfaces:
  ask:
    method: POST
    show_error_detail: true
    actions:
      - name: Agent
        agent:
          url: a|var::MODEL|
          model: m
          input: hi
          mcp:
            - url: a|body::m|
              headers: { authorization: "Bearer a|var::MCP_KEY|" }
        output: http
`;
  const KEY = 'mcp-key-0123456789';

  it('is refused at a denied loopback address, by IP and by name, and the credential is never sent', async () => {
    process.env.SERVICE__OUTBOUND_DENY = DENY_LOOPBACK;
    const port = new URL(mcp.url).port;
    for (const m of [`${mcp.url}/mcp`, `http://localhost:${port}/mcp`]) {
      const r = await runBoth(CONFIG, 'ask', { body: { m } }, { MCP_KEY: KEY, MODEL: model.url });
      expect(r.response.status).toBe(403);
      expect(failure(r)).toMatch(/agent: outbound call refused: (127\.0\.0\.1|localhost) is denied by SERVICE__OUTBOUND_DENY \(mcp server /);
    }
    expect(mcp.seen).toHaveLength(0);
    expect(model.seen).toHaveLength(0);
  });

  it('reaches the same server when the policy allows it, with the credential (the control)', async () => {
    const r = await runBoth(CONFIG, 'ask', { body: { m: `${mcp.url}/mcp` } }, { MCP_KEY: KEY, MODEL: model.url });
    expect(r.response.status).not.toBe(403);
    expect(mcp.seen.length).toBeGreaterThan(0);
    expect(mcp.seen[0]!.authorization).toBe(`Bearer ${KEY}`);
    mcp.seen.length = 0;
  });
});

describe('database: the host and port a connection string actually names', () => {
  const CONFIG = `
interfaces:
  q:
    method: POST
    show_error_detail: true
    actions:
      - name: Q
        conn_string: a|var::DB|
        query: select 1 as one
        output: http
`;

  it('a ?host=&port= that points at a denied address is refused, naming the host dialled, and nothing connects there', async () => {
    const decoy = await listener('127.0.0.2');
    try {
      process.env.SERVICE__OUTBOUND_DENY = '127.0.0.2/32';
      const r = await runBoth(CONFIG, 'q', {}, { DB: `${PG}?host=127.0.0.2&port=${decoy.port}` });
      expect(r.response.status).toBe(403);
      expect(failure(r)).toContain(`outbound call refused: 127.0.0.2 is denied by SERVICE__OUTBOUND_DENY (database \\"conn_string\\" at 127.0.0.2:${decoy.port}/test)`);
      expect(failure(r)).not.toContain('127.0.0.1:5432');
      expect(decoy.connections()).toBe(0);
      expect(openPools()).toBe(0);
    } finally {
      decoy.server.close();
    }
  });

  it('a name is resolved and checked (localhost under a loopback deny list)', async () => {
    process.env.SERVICE__OUTBOUND_DENY = DENY_LOOPBACK;
    const r = await runBoth(CONFIG, 'q', {}, { DB: `${PG}?host=localhost` });
    expect(r.response.status).toBe(403);
    expect(failure(r)).toContain('outbound call refused: localhost is denied by SERVICE__OUTBOUND_DENY (database \\"conn_string\\" at localhost:5432/test)');
  });

  it('the destination checked is the one dialled: a denied authority with an allowed ?host= still works against the real Postgres', async () => {
    process.env.SERVICE__OUTBOUND_DENY = '127.0.0.2/32';
    const allowed = PG.replace('127.0.0.1:5432', '127.0.0.2:1');
    const r = await runBoth(CONFIG, 'q', {}, { DB: `${allowed}?host=127.0.0.1&port=5432` });
    expect(r.response).toMatchObject({ status: 200, body: [{ one: 1 }] });
  });

  it('a connect failure names the host dialled, not the configured one', async () => {
    const r = await runBoth(CONFIG, 'q', {}, { DB: `${PG}?host=127.0.0.3&port=1` });
    expect(failure(r)).toContain('(127.0.0.3:1/test): could not connect');
  });
});

describe('database pools are bounded (SERVICE__DATABASE_MAX_POOLS)', () => {
  const CONFIG = `
interfaces:
  q:
    method: POST
    show_error_detail: true
    actions:
      - name: Q
        conn_string: a|var::DB|
        query: select 1 as one
        output: http
`;
  const tag = `pwcap_${process.pid}`;
  const live = async (admin: pg.Client) => Number((await admin.query(`select count(*)::int as n from pg_stat_activity where application_name like $1`, [`${tag}%`])).rows[0].n);

  it('more distinct connection strings than the cap keep at most the cap of pools and live connections', async () => {
    await closeDatabasePools();
    process.env.SERVICE__DATABASE_MAX_POOLS = '3';
    const admin = new pg.Client({ connectionString: PG, application_name: 'pw_admin' });
    await admin.connect();
    try {
      for (let i = 0; i < 8; i++) {
        const r = await runBoth(CONFIG, 'q', {}, { DB: `${PG}?application_name=${tag}_${i}` });
        expect(r.response).toMatchObject({ status: 200, body: [{ one: 1 }] });
        expect(openPools()).toBeLessThanOrEqual(3);
      }
      // Closing an evicted pool ends its connections; the server sees them go (bounded wait).
      let n = await live(admin);
      for (let waited = 0; n > 3 && waited < 50; waited++) { await new Promise((r) => setTimeout(r, 100)); n = await live(admin); }
      expect(n).toBeLessThanOrEqual(3);
      expect(n).toBeGreaterThan(0);
    } finally {
      await admin.end();
      await closeDatabasePools();
    }
  });

  it('when every pool has a statement under way, a new database is refused with 503 naming the setting', async () => {
    await closeDatabasePools();
    process.env.SERVICE__DATABASE_MAX_POOLS = '1';
    const busy = driverFor(dbSettings({ url: `${PG}?application_name=${tag}_busy` })).query('select pg_sleep(2)', [], {});
    try {
      const r = await runBoth(CONFIG, 'q', {}, { DB: `${PG}?application_name=${tag}_other` });
      expect(r.response.status).toBe(503);
      expect(failure(r)).toContain('1 database pools are open and each has a statement under way (SERVICE__DATABASE_MAX_POOLS)');
    } finally {
      await busy;
      await closeDatabasePools();
    }
  });

  it('a malformed value stops the start, naming the setting', () => {
    const r = spawnSync(process.execPath, [resolve('bin/pipewright.mjs'), 'serve', 'fixtures/quickstart.yaml', '--port', '0'], { encoding: 'utf8', env: { ...process.env, SERVICE__DATABASE_MAX_POOLS: '0' }, timeout: 60_000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('pipewright: SERVICE__DATABASE_MAX_POOLS=0 must be a whole number between 1 and 1000\n');
  }, 60_000);
});

describe('http dispatchers are bounded (origins can come from requests)', () => {
  it(`past MAX_POOLS origins the oldest dispatcher is closed and forgotten`, async () => {
    const { getDispatcher, MAX_POOLS, openHttpPools } = await import('../../runtime/actions/http/pool.ts');
    await closeHttpPools();
    const first = getDispatcher('http://127.0.0.1:1') as { closed?: boolean };
    for (let i = 2; i <= MAX_POOLS + 5; i++) getDispatcher(`http://127.0.0.1:${i}`);
    expect(openHttpPools()).toBe(MAX_POOLS);
    expect(first.closed).toBe(true);
    await closeHttpPools();
  });
});

describe('email: SERVICE__SMTP_URL is the operator\'s destination', () => {
  const CONFIG = `
interfaces:
  m:
    method: POST
    show_error_detail: true
    actions:
      - name: Mail
        email: { from: a@shop.test, to: b@shop.test, subject: s, text: t }
        output: http
`;
  it('follows the deny list (naming the setting) but not managed mode\'s private-range rule; a config\'s own smtp follows both', async () => {
    const smtp = await listener();
    process.env.SERVICE__SMTP_URL = `smtp://127.0.0.1:${smtp.port}?ignoreTLS=true`;
    try {
      process.env.SERVICE__OUTBOUND_DENY = DENY_LOOPBACK;
      const refused = await runBoth(CONFIG, 'm');
      expect(refused.response.status).toBe(403);
      expect(failure(refused)).toContain('outbound call refused: 127.0.0.1 is denied by SERVICE__OUTBOUND_DENY (SERVICE__SMTP_URL)');
      expect(smtp.connections()).toBe(0);
      delete process.env.SERVICE__OUTBOUND_DENY;
      process.env.SERVICE__MANAGED_MODE = '1';
      const managed = await runBoth(CONFIG, 'm');
      expect(managed.response.status).not.toBe(403);
      expect(smtp.connections()).toBeGreaterThan(0);
      const own = await runBoth(CONFIG.replace('{ from:', `{ smtp: "smtp://127.0.0.1:${smtp.port}", from:`), 'm');
      expect(own.response.status).toBe(403);
      expect(failure(own)).toContain('denied in managed mode');
    } finally {
      delete process.env.SERVICE__SMTP_URL;
      smtp.server.close();
    }
  });
});
