// Issue 29, section 4: every jq program has a time and a size bound (runtime/jq/bounds.ts), in the fast
// path, the interpreter and the bundle. The reproductions (`[range(.n)] | length` with n = 150M
// killed the fast path and the bundle, and held the interpreter 5-7 s; `last(range(infinite))` froze the
// server until SIGKILL) end with a 422 naming the bound, an action's `timeout` lowers it, and a plain
// request sent meanwhile is still answered. An endless stream that nothing stops is refused at `check`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planOf, serveOn, testEnv } from '../support/plans.ts';
import { serveBundle } from '../support/bundle.ts';
import { configureJqBounds, jqBoundsFrom } from '../../runtime/jq/bounds.ts';
import { compileConfig } from '../../compiler/project.ts';

// A program whose end no check can know: it depends on the input (the first reproduction), and
// one that never ends on any input but hides it from the check's rule (`range(.n)` with n = infinite).
const CONFIG = `
interfaces:
  count:
    method: POST
    show_error_detail: true
    actions:
      - name: A
        input: a|body|
        output: http
        post_transforms:
          - extract_with_jq: '[range(.n)] | length'
  forever:
    method: POST
    show_error_detail: true
    actions:
      - name: A
        input: a|body|
        output: http
        post_transforms:
          - extract_with_jq: 'last(range(.n))'
  timed:
    method: POST
    show_error_detail: true
    actions:
      - name: A
        input: a|body|
        output: http
        timeout: 50ms
        post_transforms:
          - extract_with_jq: 'last(range(.n))'
  plain:
    method: GET
    actions:
      - name: A
        input: { ok: true }
        output: http
`;

const stops: Array<() => unknown> = [];
const apps: Array<{ close(): Promise<unknown> }> = [];
afterAll(async () => {
  for (const a of apps) await a.close();
  for (const s of stops) s();
  configureJqBounds({});
});

const post = (url: string, body: unknown) => fetch(url, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
const errorOf = async (r: Response) => ((await r.json()) as { error: { status: number; detail?: string; message: string } }).error;

// The time bound in these tests (the default is 1000 ms).
const ENV = { SERVICE__JQ_TIMEOUT_MS: '300' };
const BOUND = /jq: the program did not finish within 300 ms \(SERVICE__JQ_TIMEOUT_MS\)|jq: the program built an array of more than 1000000 items \(SERVICE__JQ_MAX_ITEMS\)/;

function cases(base: () => string) {
  it('[range(.n)] | length with n = 150,000,000 is a 422 naming the bound, and the server lives on', async () => {
    const r = await post(`${base()}/count`, { n: 150_000_000 });
    expect(r.status).toBe(422);
    expect((await errorOf(r)).detail).toMatch(BOUND);
    expect((await fetch(`${base()}/plain`)).status).toBe(200);
  }, 30_000);

  it('an endless stream ends at the time bound while a plain request sent meanwhile is answered', async () => {
    const hostile = post(`${base()}/forever`, { n: 1e300 });
    const plain = fetch(`${base()}/plain`);
    const [h, p] = await Promise.all([hostile, plain]);
    expect(p.status).toBe(200);
    expect(await p.json()).toEqual({ ok: true });
    expect(h.status).toBe(422);
    expect((await errorOf(h)).detail).toMatch(/jq: the program did not finish within 300 ms \(SERVICE__JQ_TIMEOUT_MS\)/);
  }, 30_000);

  it("an action's timeout lowers the bound for that action", async () => {
    const r = await post(`${base()}/timed`, { n: 1e300 });
    expect(r.status).toBe(422);
    expect((await errorOf(r)).detail).toMatch(/jq: the program did not finish within 50 ms \(the action's timeout\)/);
  }, 30_000);

  it('a program within the bounds answers as before', async () => {
    const r = await post(`${base()}/count`, { n: 1000 });
    expect(r.status).toBe(200);
    expect(await r.json()).toBe(1000);
  });
}

describe.each(['compiled', 'interpreted'] as const)('%s', (mode) => {
  let url = '';
  beforeAll(async () => {
    configureJqBounds(ENV);
    const s = await serveOn([await planOf('jq-bounds.yaml', mode, CONFIG)], testEnv());
    apps.push(s.app);
    url = s.url;
  });
  cases(() => url);
});

describe('bundle', () => {
  let url = '';
  beforeAll(async () => { url = await serveBundle('jq-bounds.yaml', CONFIG, ENV, stops); }, 120_000);
  cases(() => url);
});

describe('settings and check', () => {
  it('validates SERVICE__JQ_TIMEOUT_MS and SERVICE__JQ_MAX_ITEMS', () => {
    expect(jqBoundsFrom({})).toEqual({ timeoutMs: 1000, maxItems: 1_000_000 });
    expect(() => jqBoundsFrom({ SERVICE__JQ_TIMEOUT_MS: 'abc' })).toThrow('SERVICE__JQ_TIMEOUT_MS=abc must be a whole number between 10 and 60000');
    expect(() => jqBoundsFrom({ SERVICE__JQ_MAX_ITEMS: '200000000' })).toThrow('SERVICE__JQ_MAX_ITEMS=200000000 must be a whole number between 1 and 10000000');
  });

  it('a bad value stops serve with one line naming the setting', () => {
    const r = spawnSync(process.execPath, [resolve('bin/pipewright.mjs'), 'serve', 'fixtures/quickstart.yaml', '--port', '0'], { encoding: 'utf8', env: { ...process.env, SERVICE__JQ_MAX_ITEMS: '-5' } });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('pipewright: SERVICE__JQ_MAX_ITEMS=-5 must be a whole number between 1 and 10000000\n');
  }, 30_000);

  it('check refuses a stream that never ends with nothing to stop it, and accepts a limited one', () => {
    const config = (jq: string) => `interfaces:\n  x:\n    actions:\n      - name: A\n        input: [1]\n        post_transforms:\n          - extract_with_jq: '${jq}'\n`;
    for (const jq of ['last(range(infinite))', '[repeat(1)]', 'until(false; . + 1)', 'range(0; infinite)']) {
      const c = compileConfig('endless.yaml', config(jq));
      expect(c.ok, jq).toBe(false);
      expect(c.diagnostics.map((d) => d.message).join('\n')).toMatch(/never ends and nothing in the program stops it/);
    }
    for (const jq of ['[limit(3; repeat(1))]', 'first(range(infinite))', 'range(.n)', '.repeat']) expect(compileConfig('endless.yaml', config(jq)).ok, jq).toBe(true);
  });

  it('the CLI check names the position', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-endless-'));
    const file = join(dir, 'endless.yaml');
    writeFileSync(file, `interfaces:\n  x:\n    actions:\n      - name: A\n        input: [1]\n        post_transforms:\n          - extract_with_jq: 'last(range(infinite))'\n`);
    const r = spawnSync(process.execPath, [resolve('bin/pipewright.mjs'), 'check', file], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stdout + r.stderr).toMatch(/endless\.yaml:7:\d+: .*`range\(infinite\)` never ends/);
  }, 30_000);
});
