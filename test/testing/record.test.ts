// Recording (pipewright test --record), at the runtime's hooks: a run against a real upstream and a
// real Postgres, its HTTP exchanges and its database action's result kept, written redacted and
// deterministic; a secret never reaches the file (searched for in its bytes, every encoding).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pinOutboundPolicy, unpinOutboundPolicy } from '../../runtime/network/outbound.ts';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { closeDatabasePools } from '../../runtime/actions/database/pools.ts';
import { executeInterface } from '../../runtime/exec/run.ts';
import { processEnvironment } from '../../runtime/environment.ts';
import { systemClock } from '../../runtime/services.ts';
import { Recorder } from '../../runtime/testing/record.ts';
import { readRecordings, secretsOf, unredacted, writeRecordings } from '../../runtime/testing/recordings-file.ts';
import { planOf, postRequest } from '../support/plans.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const KEY = 'k3y/with+odd=chars-0042';
const TOKEN = 'bearer-s3cret-for-recording';
const PG = 'postgres://postgres@127.0.0.1:5432/test';
const CONFIG = `
databases:
  main: { url: a|secret::PG_URL| }
interfaces:
  order:
    method: POST
    actions:
      - name: Customer
        url: a|var::API|/customers/a|body::id|?key=a|secret::API_KEY|
        http: { bearer_auth: a|secret::TOKEN| }
      - name: Stock
        http: { url: a|var::API|/stock, method: POST, body: { sku: a|body::sku|, key: a|secret::API_KEY| } }
      - name: Count
        database: main
        query: SELECT $1::int + 1 AS next, 'x' AS label
        params: [a|body::id|]
      - name: Reply
        input: { name: a|Customer::name|, stock: a|Stock::left|, next: a|Count->0.next| }
        output: http
`;

let up: Awaited<ReturnType<typeof countingUpstream>>;
beforeAll(async () => {
  up = await countingUpstream({
    '/customers/7': (_q, res) => {
      res.setHeader('set-cookie', `session=${TOKEN}`);
      res.setHeader('x-trace', 'abc');
      json(res, 200, { id: 7, name: 'Ada', echoed: KEY });
    },
    '/stock': (_q, res, _n, body) => json(res, 200, { left: 3, got: JSON.parse(body) as unknown }),
  });
});
afterAll(async () => { await up.close(); await closeHttpPools(); await closeDatabasePools(); });

describe.each(['compiled', 'interpreted'] as const)('%s', (mode) => {
  const dir = mkdtempSync(join(tmpdir(), 'pw-record-'));
  const file = join(dir, `shop-${mode}.recordings.json`);
  const processEnv = { SERVICE__VAR__API: '', SERVICE__SECRET__API_KEY: KEY, SERVICE__SECRET__TOKEN: TOKEN, SERVICE__SECRET__PG_URL: PG };

  it('records each exchange and the database result; writes them redacted, sorted, stable', async () => {
    processEnv.SERVICE__VAR__API = up.url;
    const plan = await planOf(`record_${mode}.yaml`, mode, CONFIG);
    const rec = new Recorder();
    rec.begin('an order');
    const r = await executeInterface(plan, plan.interfaces[0]!, postRequest('/order', { id: 7, sku: 'A1' }), {
      trigger: 'test', env: processEnvironment(processEnv), services: { clock: systemClock, standIns: rec.standIns(undefined) },
    });
    rec.end();
    expect(r.response.body).toEqual({ name: 'Ada', stock: 3, next: 8 });
    const secrets = secretsOf(processEnv);
    const text = writeRecordings(file, rec.cases, secrets);
    // No secret in any form: as is, URL-encoded, JSON-escaped, base64.
    for (const s of [KEY, TOKEN, PG, encodeURIComponent(KEY), Buffer.from(KEY).toString('base64')]) expect(text).not.toContain(s);
    expect(readFileSync(file, 'utf8')).toBe(text);
    const got = readRecordings(file).cases['an order']!;
    expect(got.http).toEqual([
      {
        request: { method: 'GET', url: `${up.url}/customers/7?key=[redacted:API_KEY]` },
        response: { status: 200, headers: { 'content-type': 'application/json', 'set-cookie': '[redacted]', 'x-trace': 'abc' }, body: { id: 7, name: 'Ada', echoed: '[redacted:API_KEY]' } },
      },
      {
        request: { method: 'POST', url: `${up.url}/stock`, body: { sku: 'A1', key: '[redacted:API_KEY]' } },
        response: { status: 200, headers: { 'content-type': 'application/json' }, body: { left: 3, got: { sku: 'A1', key: '[redacted:API_KEY]' } } },
      },
    ]);
    expect(got.actions).toEqual({ Count: [{ data: [{ next: 8, label: 'x' }] }] });
    // Keys sorted at every level.
    expect(text.indexOf('"cases"')).toBeLessThan(text.indexOf('"format"'));
    expect(text.indexOf('"request"')).toBeLessThan(text.indexOf('"response"'));
    expect(text.endsWith('}\n')).toBe(true);
    // A replay puts the test's own value back: URL-encoded in the URL, as is elsewhere.
    const back = unredacted(got.http, (n) => (n === 'API_KEY' ? 'test-key?&' : undefined));
    expect(back[0]!.request.url).toBe(`${up.url}/customers/7?key=${encodeURIComponent('test-key?&')}`);
    expect(back[1]!.request.body).toEqual({ sku: 'A1', key: 'test-key?&' });
  });

  it('a second recording of other cases keeps the entries of cases still listed, drops the rest', () => {
    const again = new Recorder();
    again.begin('another');
    again.end();
    writeRecordings(file, again.cases, [], new Set(['an order', 'another']));
    expect(Object.keys(readRecordings(file).cases).sort()).toEqual(['an order', 'another']);
    writeRecordings(file, again.cases, [], new Set(['another']));
    expect(Object.keys(readRecordings(file).cases)).toEqual(['another']);
  });
});

/** The plan's first interface run once (a POST with an empty body) under a recorder: its answer's
 *  status and the action calls recorded. */
async function recordedOnce(plan: Awaited<ReturnType<typeof planOf>>): Promise<{ status: number; actions: unknown }> {
  const rec = new Recorder();
  rec.begin('once');
  const i = plan.interfaces[0]!;
  const r = await executeInterface(plan, i, postRequest(`/${i.name}`, {}), {
    trigger: 'test', env: processEnvironment({}), services: { clock: systemClock, standIns: rec.standIns(undefined) },
  });
  rec.end();
  return { status: r.response.status, actions: rec.cases.get('once')!.actions };
}

describe('recording a failed outbound action', () => {
  it('keeps its transport class: a database nobody listens for is recorded as a connect failure (502), not a plain error', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const plan = await planOf('record_down.yaml', 'interpreted', `
databases:
  main: { url: "postgres://postgres@127.0.0.1:${port}/test" }
interfaces:
  count:
    method: POST
    actions:
      - name: Count
        database: main
        query: SELECT 1 AS one
`);
    const r = await recordedOnce(plan);
    expect(r.status).toBe(502);
    expect(r.actions).toEqual({ Count: [{ error: expect.stringContaining('ECONNREFUSED'), transport: 'connect' }] });
  });
});

describe('recording a refused outbound action', () => {
  afterEach(() => unpinOutboundPolicy());

  it.each(['compiled', 'interpreted'] as const)('keeps its refusal (%s): a database the outbound policy denies is recorded as refused 403, not a plain error', async (mode) => {
    pinOutboundPolicy({ SERVICE__OUTBOUND_DENY: '10.255.255.0/24' });
    const plan = await planOf(`record_denied_${mode}.yaml`, mode, `
databases:
  main: { url: "postgres://postgres@10.255.255.1:5432/test" }
interfaces:
  count:
    method: POST
    actions:
      - name: Count
        database: main
        query: SELECT 1 AS one
        retry: { attempts: 2, delay: 0 }
`);
    const r = await recordedOnce(plan);
    expect(r.status).toBe(403);
    // Never retried: one call recorded.
    expect(r.actions).toEqual({ Count: [{ error: expect.stringContaining('outbound call refused: 10.255.255.1 is denied by SERVICE__OUTBOUND_DENY'), refused: 403 }] });
  });
});

describe('recording an http action with a proxy', () => {
  it('goes through the proxy the action names (its own pool), and is recorded', async () => {
    const { http } = await import('../../runtime/actions/http.ts');
    const { startForwardProxy } = await import('../http-action/forward-proxy.ts');
    const { ctx } = await import('../http-action/helpers.ts');
    const proxy = await startForwardProxy();
    try {
      const rec = new Recorder();
      rec.begin('proxied');
      const c = ctx();
      c.services = { ...c.services, standIns: rec.standIns(undefined) };
      const out = await http({ url: `${up.url}/stock`, method: 'POST', body: { sku: 'P' }, proxy: proxy.url }, c);
      rec.end();
      expect(out).toMatchObject({ ok: true, status: 200, data: { left: 3, got: { sku: 'P' } } });
      expect(proxy.seen.map((s: { url: string }) => s.url)).toEqual([`${up.url}/stock`]);
      expect(rec.cases.get('proxied')!.http).toMatchObject([{ request: { method: 'POST', url: `${up.url}/stock`, body: { sku: 'P' } }, response: { status: 200, body: { left: 3, got: { sku: 'P' } } } }]);
    } finally {
      await proxy.close();
    }
  });
});
