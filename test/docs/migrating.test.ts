// docs/migrating.md's translated flows (docs/migrating/*.yaml): `check` passes each, and each runs in
// both paths as the flow it translates did: the Node-RED page shows the time the schedule stored; the
// n8n workflow posts one PostBin message per solar flare, X class and the rest on their own branches.
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeInterface } from '../../runtime/exec/run.ts';
import { systemClock } from '../../runtime/services.ts';
import { MemoryStore } from '../../runtime/store/memory.ts';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { planOf, testEnv } from '../support/plans.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { check } from '../schema/helpers.ts';

const dir = new URL('../../docs/migrating/', import.meta.url);
const read = (name: string) => readFileSync(new URL(name, dir), 'utf8');
const page = readFileSync(new URL('../../docs/migrating.md', import.meta.url), 'utf8');
const get = (path: string) => ({ method: 'GET', path, params: {}, headers: {}, body: null, rawBody: '' });

describe('docs/migrating', () => {
  const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));

  it('has the two translated flows, each named on the page', () => {
    expect(files.sort()).toEqual(['n8n-solar-flares.yaml', 'node-red-hello-data.yaml']);
    for (const f of files) expect(page).toContain(`migrating/${f}`);
  });

  it('prints each flow as its file holds it (from `interfaces:` on)', () => {
    for (const f of files) {
      const text = read(f);
      expect(page).toContain('```yaml\n' + text.slice(text.indexOf('interfaces:')) + '```');
    }
  });

  it.each(files)('%s passes check', (f) => {
    expect(check(read(f), f).filter((d) => d.severity === 'error')).toEqual([]);
  });
});

describe('the Node-RED flow, translated', () => {
  it.each(['compiled', 'interpreted'] as const)('the scheduled run stores the time; GET /hello-data shows it in the page (%s)', async (mode) => {
    const plan = await planOf(`hello-data-${mode}.yaml`, mode, read('node-red-hello-data.yaml'));
    const services = { clock: systemClock, store: new MemoryStore() };
    const run = (name: string) => executeInterface(plan, plan.interfaces.find((i) => i.name === name)!, get(`/${name}`), { trigger: 'test', env: testEnv(), services });
    const before = Date.now();
    const stored = await run('store_time');
    expect(stored.response.status).toBe(200);
    const res = await run('hello_data');
    expect(res.response.status).toBe(200);
    expect(String(res.response.headers?.['content-type'])).toContain('text/html');
    const time = Number(/<h1>Time: (\d+)<\/h1>/.exec(String(res.response.body))?.[1]);
    expect(time).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(time).toBeLessThanOrEqual(Date.now());
  });
});

describe('the n8n workflow, translated', () => {
  let up: Awaited<ReturnType<typeof countingUpstream>>;
  beforeAll(async () => {
    up = await countingUpstream({
      '/DONKI/FLR': (_req, res) => json(res, 200, [{ flrID: 'a', classType: 'M1.2' }, { flrID: 'b', classType: 'X1.0' }, { flrID: 'c', classType: 'C3.4' }]),
      '/bin-1': (_req, res) => json(res, 200, { ok: true }),
    });
  });
  afterAll(async () => { await closeHttpPools(); await up.close(); });

  it.each(['compiled', 'interpreted'] as const)('asks for the past week with the key, posts the X class and the smaller flares on their branches (%s)', async (mode) => {
    const plan = await planOf(`solar-${mode}.yaml`, mode, read('n8n-solar-flares.yaml'));
    const from = up.hits.length;
    const r = await executeInterface(plan, plan.interfaces[0]!, get('/solar_flares'), {
      trigger: 'test', env: testEnv({ NASA_API: up.url, POSTBIN: up.url, POSTBIN_BIN_ID: 'bin-1' }, { NASA_API_KEY: 'demo-key' }), services: { clock: systemClock },
    });
    expect(r.response.status).toBe(200);
    const hits = up.hits.slice(from);
    const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);
    const asked = new URL(hits[0]!.path, up.url);
    expect([asked.pathname, asked.searchParams.get('api_key')]).toEqual(['/DONKI/FLR', 'demo-key']);
    expect([weekAgo, new Date(Date.now() - 7 * 86_400_000 - 60_000).toISOString().slice(0, 10)]).toContain(asked.searchParams.get('startDate'));
    expect(hits.slice(1).map((h) => h.body)).toEqual([
      'There was a solar flare of class X1.0',
      'There was a solar flare of class M1.2',
      'There was a solar flare of class C3.4',
    ]);
  });
});
