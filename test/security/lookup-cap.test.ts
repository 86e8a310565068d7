// Issue 29, section 4: a lookup runs at most SERVICE__LOOKUP_MAX_ITEMS items (1000), or its own
// `lookup_max_items` when lower. One 1.3 MB request made 100,000 upstream calls; now more items than the
// cap fail the action before any item runs: 400 naming the limit when the request chose them, 500 when an
// upstream gave them. Both paths and the bundle, against an upstream that counts its calls.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planOf, postRequest, serveOn, testEnv } from '../support/plans.ts';
import { serveBundle } from '../support/bundle.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { executeInterface } from '../../runtime/exec/run.ts';
import { systemClock } from '../../runtime/services.ts';

const up = await countingUpstream({
  '/item/*': (_req, res) => json(res, 200, { ok: true }),
  '/list': (_req, res) => json(res, 200, Array.from({ length: 6 }, (_, i) => i)),
});

const config = (api: string) => `
interfaces:
  fan:
    method: POST
    actions:
      - name: Each
        lookup: a|body::ids|
        output: http
        actions:
          - name: Get
            url: ${api}/item/a|body|
  small:
    method: POST
    actions:
      - name: Each
        lookup: a|body::ids|
        lookup_max_items: 3
        output: http
        actions:
          - name: Get
            url: ${api}/item/a|body|
  upstream:
    method: POST
    actions:
      - name: List
        url: ${api}/list
      - name: Each
        lookup: a|List|
        lookup_max_items: 5
        output: http
        actions:
          - name: Get
            url: ${api}/item/a|body|
`;

const stops: Array<() => unknown> = [];
const apps: Array<{ close(): Promise<unknown> }> = [];
afterAll(async () => {
  for (const a of apps) await a.close();
  for (const s of stops) s();
  await up.close();
});

const post = (url: string, body: unknown) => fetch(url, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
const errorOf = async (r: Response) => ((await r.json()) as { error: { status: number; message: string; detail?: string } }).error;
const itemCalls = () => up.hits.filter((h) => h.path.startsWith('/item/')).length;
const ids = (n: number) => Array.from({ length: n }, (_, i) => i);

function cases(base: () => string, cap: number) {
  it(`${cap + 1} items from the request: 400 naming the limit, and no upstream call`, async () => {
    const before = itemCalls();
    const r = await post(`${base()}/fan`, { ids: ids(cap + 1) });
    expect(r.status).toBe(400);
    expect((await errorOf(r)).message).toBe(`action "Each" refused: lookup: ${cap + 1} items, more than the ${cap} a lookup may run (SERVICE__LOOKUP_MAX_ITEMS)`);
    expect(itemCalls() - before).toBe(0);
  });

  it('lookup_max_items lowers the cap for its action', async () => {
    const before = itemCalls();
    const r = await post(`${base()}/small`, { ids: ids(4) });
    expect(r.status).toBe(400);
    expect((await errorOf(r)).message).toBe('action "Each" refused: lookup: 4 items, more than the 3 a lookup may run (lookup_max_items)');
    expect(itemCalls() - before).toBe(0);
    const ok = await post(`${base()}/small`, { ids: ids(3) });
    expect(ok.status).toBe(200);
    expect(itemCalls() - before).toBe(3);
  });

  it("items an upstream gave beyond the cap fail the action (500, not the client's fault), with no item call", async () => {
    const before = itemCalls();
    const r = await post(`${base()}/upstream`, {});
    expect(r.status).toBe(500);
    expect(itemCalls() - before).toBe(0);
  });
}

describe.each(['compiled', 'interpreted'] as const)('%s', (mode) => {
  let url = '';
  beforeAll(async () => {
    const s = await serveOn([await planOf('lookup-cap.yaml', mode, config(up.url))], testEnv());
    apps.push(s.app);
    url = s.url;
  });
  cases(() => url, 1000);

  it('SERVICE__LOOKUP_MAX_ITEMS (the services field the server reads it into) sets the cap', async () => {
    const plan = await planOf('lookup-cap.yaml', mode, config(up.url));
    const i = plan.interfaces.find((x) => x.name === 'fan')!;
    const before = itemCalls();
    const r = await executeInterface(plan, i, postRequest('/fan', { ids: ids(3) }), { trigger: 'test', env: testEnv(), services: { clock: systemClock, lookupMaxItems: 2 } });
    expect(r.response.status).toBe(400);
    expect(JSON.stringify(r.response.body)).toContain('more than the 2 a lookup may run (SERVICE__LOOKUP_MAX_ITEMS)');
    expect(itemCalls() - before).toBe(0);
  });
});

describe('bundle', () => {
  let url = '';
  beforeAll(async () => { url = await serveBundle('lookup-cap.yaml', config(up.url), { SERVICE__LOOKUP_MAX_ITEMS: '4' }, stops); }, 120_000);
  cases(() => url, 4);
});

it('a bad SERVICE__LOOKUP_MAX_ITEMS stops the start naming it', () => {
  const r = spawnSync(process.execPath, [resolve('bin/pipewright.mjs'), 'serve', 'fixtures/quickstart.yaml', '--port', '0'], { encoding: 'utf8', env: { ...process.env, SERVICE__LOOKUP_MAX_ITEMS: '0' } });
  expect(r.status).toBe(1);
  expect(r.stderr).toBe('pipewright: SERVICE__LOOKUP_MAX_ITEMS=0 must be a whole number between 1 and 1000000\n');
}, 30_000);
