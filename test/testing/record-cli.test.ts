// `pipewright test --record` as a user runs it: the cases run once against a real upstream and a real
// Postgres, the recordings are written beside the config with no secret in their bytes, and a second
// run replays them in an empty network namespace (nothing can connect) and passes.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { cleanEnv } from '../support/serve-cli.ts';

// Each step is a CLI process that compiles the config (a limit, not a speed check).
vi.setConfig({ testTimeout: 120_000 });

const bin = resolve('bin/pipewright.mjs');
const REAL_KEY = 'real-api-key/+=0042';
const REAL_TOKEN = 'real-bearer-token-for-recording';
const TEST_KEY = 'test-api-key-0001';
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
      - name: Count
        database: main
        query: SELECT $1::int + 1 AS next
        params: [a|body::id|]
      - name: Reply
        input: { name: a|Customer::name|, next: a|Count->0.next|, echoed: a|Customer::echoed| }
        output: http
`;

let dir: string;
let config: string;
let up: Awaited<ReturnType<typeof countingUpstream>>;
let hits = 0;

// Not spawnSync: the upstream answers from this process, whose event loop must keep running.
function cli(args: string[], env: Record<string, string>, wrap: string[] = []): Promise<{ code: number | null; out: string; err: string }> {
  const cmd = [...wrap, process.execPath, bin, ...args, '--no-fastpath'];
  const child = spawn(cmd[0]!, cmd.slice(1), { env: { ...cleanEnv(), NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '', err = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stderr.on('data', (d) => { err += d; });
  return new Promise((done) => child.on('close', (code) => done({ code, out, err })));
}

beforeAll(async () => {
  up = await countingUpstream({
    '/customers/7': (req, res) => {
      hits++;
      // The upstream checks the real credentials: a recording made with the test ones would be a 401.
      if (req.headers.authorization !== `Bearer ${REAL_TOKEN}` || !req.url!.includes(encodeURIComponent(REAL_KEY))) return json(res, 401, { error: 'who are you' });
      res.setHeader('set-cookie', `sid=${REAL_TOKEN}`);
      json(res, 200, { id: 7, name: 'Ada', echoed: REAL_KEY });
    },
  });
  dir = mkdtempSync(join(tmpdir(), 'pw-record-cli-'));
  config = join(dir, 'shop.yaml');
  writeFileSync(config, CONFIG);
  writeFileSync(join(dir, 'shop.tests.yaml'), `# cases of the shop
vars: { API: "${up.url}" }
secrets: { API_KEY: ${TEST_KEY}, TOKEN: test-token-0001, PG_URL: "postgres://nobody@127.0.0.1:1/none" }
cases:
  - name: an order
    interface: order
    request: { body: { id: 7 } }
    expect:
      status: 200
      body_includes: { name: Ada, next: 8 }
`);
});
afterAll(async () => { await up.close().catch(() => undefined); });

describe('pipewright test --record', () => {
  it('records against the real upstream and database with the real secrets; the file holds none of them', async () => {
    const x = await cli(['test', config, '--record'], { SERVICE__SECRET__API_KEY: REAL_KEY, SERVICE__SECRET__TOKEN: REAL_TOKEN, SERVICE__SECRET__PG_URL: PG });
    expect(x.err).toContain('✓');
    expect(x.code).toBe(0);
    expect(hits).toBe(1);
    const file = join(dir, 'shop.recordings.json');
    const bytes = readFileSync(file);
    for (const s of [REAL_KEY, encodeURIComponent(REAL_KEY), JSON.stringify(REAL_KEY).slice(1, -1), REAL_TOKEN, Buffer.from(REAL_TOKEN).toString('base64'), PG, TEST_KEY]) {
      expect(bytes.includes(Buffer.from(s))).toBe(false);
    }
    const rec = JSON.parse(bytes.toString('utf8')) as { cases: Record<string, { http: Array<Record<string, any>>; actions: Record<string, unknown[]> }> };
    expect(rec.cases['an order']!.http).toEqual([{
      request: { method: 'GET', url: `${up.url}/customers/7?key=[redacted:API_KEY]` },
      response: { status: 200, headers: { 'content-type': 'application/json', 'set-cookie': '[redacted]' }, body: { id: 7, name: 'Ada', echoed: '[redacted:API_KEY]' } },
    }]);
    expect(rec.cases['an order']!.actions).toEqual({ Count: [{ data: [{ next: 8 }] }] });
    // A second recording of the same answers writes the same bytes.
    expect((await cli(['test', config, '--record'], { SERVICE__SECRET__API_KEY: REAL_KEY, SERVICE__SECRET__TOKEN: REAL_TOKEN, SERVICE__SECRET__PG_URL: PG })).code).toBe(0);
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });

  it('replays from the recordings with no network at all, the test key of the case in the URL', async () => {
    await up.close();
    const x = await cli(['test', config], {}, ['unshare', '-rn']);
    expect(x.err).toContain('✓');
    expect(x.out).toMatch(/\b1 passed, 0 failed/);
    expect(x.code).toBe(0);
  });
});
