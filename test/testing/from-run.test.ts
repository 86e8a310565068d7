// `pipewright test --from-run`: a run a serving node captured becomes a case in <config>.tests.yaml
// (real processes, a real upstream), and that case passes with the upstream gone and no network.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Agent } from 'undici';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse } from 'yaml';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { cleanEnv } from '../support/serve-cli.ts';
import { appendCase, runCase } from '../../cli/from-run.ts';
import { caseProblems } from '../support/test-cli.ts';
import { loadPlans } from '../../cli/load-plans.ts';
import type { RunDetail } from '../../runtime/testing/index.ts';

// Each step is a CLI process that compiles the config (a limit, not a speed check).
vi.setConfig({ testTimeout: 120_000 });

const bin = resolve('bin/pipewright.mjs');
const ADMIN = 'from-run-admin-token-0123456789';
const UP_TOKEN = 'up-s3cret-token-for-from-run';
const CONFIG = `
interfaces:
  order:
    method: POST
    capture: all
    actions:
      - name: Customer
        url: a|var::API|/customers/a|body::id|
        http: { bearer_auth: a|secret::UP_TOKEN| }
      - name: Reply
        input: { id: a|body::id|, name: a|Customer::name|, total: a|body::total| }
        output: http
  broken:
    method: POST
    response: { http_code_on_error: 502 }
    actions:
      - name: Down
        url: a|var::API|/down
        output: http
  plain:
    actions:
      - name: Hello
        input: hi
        output: http
  enrich:
    method: POST
    capture: all
    actions:
      - name: People
        lookup: a|body::ids|
        lookup_concurrency: 3
        lookup_inherit_jq: { asked: . }
        actions:
          - name: Person
            url: a|var::API|/customers/a|body|
            post_transforms: [ { keep_attributes: [name] } ]
      - name: Reply
        input: { people: a|People| }
        output: http
  enrich_summed:
    method: POST
    capture: all
    actions:
      - name: Names
        lookup: a|body::ids|
        actions:
          - name: Person
            url: a|var::API|/customers/a|body|
        post_transforms: [ { extract_with_jq: "map(.name)" } ]
        output: http
  stock:
    method: POST
    actions:
      - name: Stock
        lookup: a|body::skus|
        timeout: 100
        actions:
          - name: Level
            url: a|var::API|/stock/a|body|
            http: { timeout: 400 }
      - name: Reply
        input: { stock: a|Stock| }
        output: http
  unreachable:
    method: POST
    actions:
      - name: Gone
        url: a|var::DEAD|/ping
        output: http
  item:
    method: POST
    actions:
      - name: Item
        url: a|var::API|/items/a|body::sku|
        output: http
  notify:
    method: POST
    actions:
      - name: Notify
        url: a|var::DENIED|/notify
        retry: { attempts: 3, delay: 1m }
        output: http
  mail:
    method: POST
    actions:
      - name: Mail
        email: { smtp: a|var::SMTP|, from: shop@example.com, to: ops@example.com, subject: hi, text: a|body::note| }
      - name: Reply
        input: sent
        output: http
`;

const children: ChildProcess[] = [];
let dir: string;
let config: string;
let up: Awaited<ReturnType<typeof countingUpstream>>;
let base: string;
/** A loopback port nothing listens on (one that was just closed): a connect there is refused. */
let dead: string;
/** An address the served node's outbound policy denies (SERVICE__OUTBOUND_DENY): refused before any connection. */
const DENIED = '10.255.255.1';
const env = () => ({ ...cleanEnv(), NO_COLOR: '1', SERVICE__VAR__API: up.url, SERVICE__VAR__DEAD: dead, SERVICE__VAR__DENIED: `http://${DENIED}`, SERVICE__VAR__SMTP: `smtp://${DENIED}:25?ignoreTLS=true`, SERVICE__SECRET__UP_TOKEN: UP_TOKEN });

function cli(args: string[], extra: Record<string, string> = {}, wrap: string[] = []) {
  const cmd = [...wrap, process.execPath, bin, ...args, '--no-fastpath'];
  const r = spawnSync(cmd[0]!, cmd.slice(1), { encoding: 'utf8', env: { ...env(), ...extra } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** The same command in this process (no CLI start-up to pay): for the refusals, which spawn no server. */
async function inproc(args: string[], extra: Record<string, string> = {}) {
  const { main } = await import('../../cli/main.ts');
  const errs: string[] = [];
  const given: Record<string, string | undefined> = { NO_COLOR: '1', SERVICE__VAR__API: up.url, SERVICE__SECRET__UP_TOKEN: UP_TOKEN, SERVICE__ADMIN_TOKEN: undefined, SERVICE__DATABASE_URL: undefined, ...extra };
  for (const [k, v] of Object.entries(given)) vi.stubEnv(k, v);
  vi.spyOn(process.stderr, 'write').mockImplementation((t) => { errs.push(String(t)); return true; });
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try { return { code: await main([...args, '--no-fastpath']), err: errs.join('') }; } finally { vi.restoreAllMocks(); vi.unstubAllEnvs(); }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pw-from-run-'));
  config = join(dir, 'shop.yaml');
  writeFileSync(config, CONFIG);
  up = await countingUpstream({
    '/customers/7': (_q, res) => json(res, 200, { id: 7, name: 'Ada', tier: 'gold' }),
    '/customers/8': (_q, res) => json(res, 200, { id: 8, name: 'Grace', tier: 'silver' }),
    '/customers/9': (_q, res) => json(res, 404, { missing: 9 }),
    '/down': (_q, res) => json(res, 503, { down: true }),
    // Never answers: the item's call times out (closeAllConnections ends it at close).
    '/stock/*': () => new Promise<void>(() => undefined),
  });
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  dead = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise<void>((r) => closed.close(() => r()));
  const child = spawn(process.execPath, [bin, 'serve', config, '--port', '0'], { env: { ...env(), SERVICE__ADMIN_TOKEN: ADMIN, SERVICE__OUTBOUND_DENY: `${DENIED}/32` }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  base = await new Promise<string>((ok, fail) => {
    let err = '';
    child.stdout!.resume();
    child.stderr!.on('data', (d) => { err += d; const m = /listening on (http:\/\/\S+)/.exec(err); if (m) ok(m[1]!); });
    child.on('exit', (c) => fail(new Error(`serve exited ${c}: ${err}`)));
  });
});
afterAll(async () => { for (const c of children) c.kill('SIGKILL'); await up.close().catch(() => undefined); });

// A connection per request: the steps between requests outlast the server's keep-alive.
const send = (path: string, init: RequestInit = {}) => fetch(`${base}${path}`, { ...init, dispatcher: new Agent({ pipelining: 0 }) } as unknown as RequestInit);
const post = async (path: string, body: unknown) => {
  const res = await send(path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-client': 'shop-web' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() as unknown, id: res.headers.get('x-run-id')! };
};

describe('pipewright test --from-run', () => {
  let okRun: string;
  let failedRun: string;

  it('appends a captured run as a case: request, stand-ins by action name, the answer expected; secrets stay out', async () => {
    const r = await post('/order', { id: 7, total: 12.5 });
    expect(r).toMatchObject({ status: 200, body: { id: 7, name: 'Ada', total: 12.5 } });
    okRun = r.id;
    // Existing content and comments are kept.
    writeFileSync(join(dir, 'shop.tests.yaml'), '# hand-written cases\ncases:\n  - name: plain says hi   # the simplest one\n    interface: plain\n    expect: { status: 200, body: hi }\n');
    const x = cli(['test', config, '--from-run', okRun, '--server', base], { SERVICE__ADMIN_TOKEN: ADMIN });
    expect(x.err).toContain(`added case "run ${okRun}"`);
    expect(x.code).toBe(0);
    const text = readFileSync(join(dir, 'shop.tests.yaml'), 'utf8');
    expect(text).toContain('# hand-written cases');
    expect(text).toContain('# the simplest one');
    expect(text).toContain(`# From run ${okRun} (shop.order, succeeded, answered 200)`);
    expect(text).not.toContain(UP_TOKEN);
    const cases = (parse(text) as { cases: Array<Record<string, unknown>> }).cases;
    expect(cases).toHaveLength(2);
    expect(cases[1]).toEqual({
      name: `run ${okRun}`,
      interface: 'order',
      request: { method: 'POST', headers: expect.objectContaining({ 'content-type': 'application/json', 'x-client': 'shop-web' }), body: { id: 7, total: 12.5 } },
      actions: { Customer: { data: { id: 7, name: 'Ada', tier: 'gold' }, status: 200 } },
      expect: { status: 200, body: { id: 7, name: 'Ada', total: 12.5 } },
    });
    expect((cases[1]!.request as { headers: object }).headers).not.toHaveProperty('host');
  });

  it('a failed run: the action fails as it did, the error answer is expected', async () => {
    const r = await post('/broken', { n: 1 });
    expect(r.status).toBe(502);
    failedRun = r.id;
    const tokenFile = join(dir, 'admin-token');
    writeFileSync(tokenFile, `${ADMIN}\n`);
    const x = await inproc(['test', config, '--from-run', failedRun, '--server', base, '--admin-token-file', tokenFile]);
    expect(x.code, x.err).toBe(0);
    const cases = (parse(readFileSync(join(dir, 'shop.tests.yaml'), 'utf8')) as { cases: Array<Record<string, any>> }).cases;
    const c = cases.find((k) => k.name === `run ${failedRun}`)!;
    expect(c.actions.Down).toMatchObject({ error: expect.stringContaining('503'), status: 503 });
    expect(c.expect.status).toBe(502);
  });

  it('the same run twice: refused, the file unchanged', async () => {
    const before = readFileSync(join(dir, 'shop.tests.yaml'), 'utf8');
    const again = await inproc(['test', config, '--from-run', okRun, '--server', base], { SERVICE__ADMIN_TOKEN: ADMIN });
    expect(again.code).toBe(1);
    expect(again.err).toContain(`a case named "run ${okRun}" is there already`);
    expect(readFileSync(join(dir, 'shop.tests.yaml'), 'utf8')).toBe(before);
  });

  it('an unknown run, a missing token, a wrong token, no source: clear refusals', async () => {
    const unknown = await inproc(['test', config, '--from-run', 'no-such-run', '--server', base], { SERVICE__ADMIN_TOKEN: ADMIN });
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('Set `capture: all` on the interface');
    const none = await inproc(['test', config, '--from-run', okRun, '--server', base]);
    expect(none.err).toContain('needs the admin token: set SERVICE__ADMIN_TOKEN or pass --admin-token-file');
    const wrong = await inproc(['test', config, '--from-run', okRun, '--server', base], { SERVICE__ADMIN_TOKEN: 'not-the-admin-token-at-all' });
    expect(wrong.code).toBe(1);
    expect(wrong.err).toContain('refused the admin token (401)');
    const nowhere = await inproc(['test', config, '--from-run', okRun]);
    expect(nowhere.err).toContain('--server URL');
  });

  it('flags that do not go together are refused, never ignored', async () => {
    const both = await inproc(['test', config, '--from-run', okRun, '--server', base, '--record'], { SERVICE__ADMIN_TOKEN: ADMIN });
    expect(both.code).toBe(2);
    expect(both.err).toContain('--from-run writes a case and runs nothing: --record do not go with it');
    const stray = await inproc(['test', config, '--server', base]);
    expect(stray.code).toBe(2);
    expect(stray.err).toContain('--server only go with --from-run <run id>');
  });

  it('a successful run of an interface without capture is not kept: the message says how to turn capture on', async () => {
    const res = await send('/plain');
    expect(res.status).toBe(200);
    const x = await inproc(['test', config, '--from-run', res.headers.get('x-run-id')!, '--server', base], { SERVICE__ADMIN_TOKEN: ADMIN });
    expect(x.code).toBe(1);
    expect(x.err).toMatch(/kept only when its interface captures it\. Set `capture: all` on the interface/);
  });

  it('a lookup whose items call out is stood in whole with its recorded result (a record keeps no item\'s calls)', async () => {
    const r = await post('/enrich', { ids: [8, 7, 9] });
    expect(r.status).toBe(200);
    const x = cli(['test', config, '--from-run', r.id, '--server', base], { SERVICE__ADMIN_TOKEN: ADMIN });
    expect(x.code, x.err).toBe(0);
    const cases = (parse(readFileSync(join(dir, 'shop.tests.yaml'), 'utf8')) as { cases: Array<Record<string, any>> }).cases;
    const c = cases.find((k) => k.name === `run ${r.id}`)!;
    // The item that answered 404 failed: its data is the error body as received (no inherited field,
    // no post_transforms), as the run answered it.
    const people = [{ name: 'Grace', asked: 8 }, { name: 'Ada', asked: 7 }, { missing: 9 }];
    expect(c.actions).toEqual({ People: { data: people } });
    expect(c.expect).toEqual({ status: 200, body: { people } });
  });

  it('a lookup that calls out and has post_transforms: refused, naming it and why, the file unchanged', async () => {
    const r = await post('/enrich_summed', { ids: [7, 8] });
    expect(r).toMatchObject({ status: 200, body: ['Ada', 'Grace'] });
    const before = readFileSync(join(dir, 'shop.tests.yaml'), 'utf8');
    const x = await inproc(['test', config, '--from-run', r.id, '--server', base], { SERVICE__ADMIN_TOKEN: ADMIN });
    expect(x.code).toBe(1);
    expect(x.err).toContain(`--from-run ${r.id}: action "Names" is a lookup whose items call out (Person (http)) and which has post_transforms/json_output: the run record keeps only its result after them`);
    expect(x.err).toContain('Write this case by hand: give Person results under actions:');
    expect(readFileSync(join(dir, 'shop.tests.yaml'), 'utf8')).toBe(before);
  });

  it('a lookup that timed out while its item\'s call hung: the stand-in fails as a timeout, as the run did (504)', async () => {
    const r = await post('/stock', { skus: ['a1'] });
    expect(r).toMatchObject({ status: 504, body: { error: { status: 504, action: 'Stock' } } });
    const detail = await (await send(`/_ap/runs/${r.id}`, { headers: { authorization: `Bearer ${ADMIN}` } })).json() as { actions: unknown[] };
    expect(detail.actions).toEqual([
      expect.objectContaining({ name: 'Stock', outcome: 'failed', error: 'lookup timed out', transport: 'timeout' }),
      { name: 'Reply', outcome: 'skipped', attempts: 0, reason: 'skipped: Stock failed' },
    ]);
    const x = await inproc(['test', config, '--from-run', r.id, '--server', base], { SERVICE__ADMIN_TOKEN: ADMIN });
    expect(x.code, x.err).toBe(0);
    const c = (parse(readFileSync(join(dir, 'shop.tests.yaml'), 'utf8')) as { cases: Array<Record<string, any>> }).cases.find((k) => k.name === `run ${r.id}`)!;
    expect(c.actions).toEqual({ Stock: { error: 'lookup timed out', transport: 'timeout' } });
    expect(c.expect).toEqual({ status: 504, body: r.body });
  });

  it('an http action that could not connect: the stand-in fails as a connect failure (502), not a plain error (500)', async () => {
    const r = await post('/unreachable', {});
    expect(r).toMatchObject({ status: 502, body: { error: { status: 502, action: 'Gone' } } });
    const x = await inproc(['test', config, '--from-run', r.id, '--server', base], { SERVICE__ADMIN_TOKEN: ADMIN });
    expect(x.code, x.err).toBe(0);
    const c = (parse(readFileSync(join(dir, 'shop.tests.yaml'), 'utf8')) as { cases: Array<Record<string, any>> }).cases.find((k) => k.name === `run ${r.id}`)!;
    expect(c.actions).toEqual({ Gone: { error: expect.stringContaining('ECONNREFUSED'), transport: 'connect' } });
    expect(c.expect.status).toBe(502);
  });

  it('a record is data: a transport class this runtime lacks is left out and said; a record without one exports a plain error', async () => {
    const plan = (await loadPlans([config], false))![0]!;
    const detail = (transport: unknown) => ({
      id: 'r-other', config: 'shop', interface: 'unreachable', status: 'failed', started_at: '2026-12-07T00:00:00.000Z', trigger: 'http',
      request: { method: 'POST', path: '/unreachable', params: {}, headers: {}, body: null },
      actions: [{ name: 'Gone', outcome: 'failed', attempts: 1, error: 'down', ...(transport === undefined ? {} : { transport }) }],
      outcome: { http_code: 502, body: null },
    }) as unknown as RunDetail;
    const odd = runCase(plan, detail({ toString: 'timeout' }));
    expect(odd.case.actions).toEqual({ Gone: { error: 'down' } });
    expect(odd.notes).toEqual(['action "Gone": the run record gives transport {"toString":"timeout"}, which is none of timeout, connect, other: left out, its stand-in fails as a plain error']);
    expect(odd.comment).toContain('Note: action "Gone": the run record gives transport');
    const old = runCase(plan, detail(undefined));
    expect(old.case.actions).toEqual({ Gone: { error: 'down' } });
    expect(old.notes).toEqual([]);
    expect(runCase(plan, detail('connect')).case.actions).toEqual({ Gone: { error: 'down', transport: 'connect' } });
  });

  it('a value refused while the settings were filled in: refused 400 in settings, no stand-in (the request refuses again by itself)', async () => {
    const r = await post('/item', { sku: '..' });
    expect(r).toMatchObject({ status: 400, body: { error: { status: 400, message: 'action "Item" refused: a|body::sku| is "..", which would move the URL path: refused', action: 'Item' } } });
    const detail = await (await send(`/_ap/runs/${r.id}`, { headers: { authorization: `Bearer ${ADMIN}` } })).json() as { actions: unknown[] };
    expect(detail.actions).toEqual([expect.objectContaining({ name: 'Item', outcome: 'failed', attempts: 1, refused: 400, refused_in: 'settings' })]);
    const x = await inproc(['test', config, '--from-run', r.id, '--server', base], { SERVICE__ADMIN_TOKEN: ADMIN });
    expect(x.code, x.err).toBe(0);
    expect(x.err).toContain('note: action "Item" was refused (400) while its settings or input were filled in, before it ran: the case replays what filled them (the request, the earlier actions\' results), so it refuses again by itself and has no stand-in');
    const c = (parse(readFileSync(join(dir, 'shop.tests.yaml'), 'utf8')) as { cases: Array<Record<string, any>> }).cases.find((k) => k.name === `run ${r.id}`)!;
    expect(c).not.toHaveProperty('actions');
    expect(c.request.body).toEqual({ sku: '..' });
    expect(c.expect).toEqual({ status: 400, body: r.body });
  });

  it('a destination the outbound policy denies: refused 403 by the kind, never retried; the stand-in says so (403), not a plain error (500)', async () => {
    const r = await post('/notify', {});
    expect(r).toMatchObject({ status: 403, body: { error: { status: 403, action: 'Notify', message: expect.stringMatching(/^action "Notify" refused: outbound call refused: 10\.255\.255\.1 is denied by SERVICE__OUTBOUND_DENY/) } } });
    const detail = await (await send(`/_ap/runs/${r.id}`, { headers: { authorization: `Bearer ${ADMIN}` } })).json() as { actions: Array<Record<string, unknown>> };
    expect(detail.actions).toEqual([expect.objectContaining({ name: 'Notify', outcome: 'failed', attempts: 1, refused: 403 })]);
    expect(detail.actions[0]).not.toHaveProperty('refused_in');
    const x = await inproc(['test', config, '--from-run', r.id, '--server', base], { SERVICE__ADMIN_TOKEN: ADMIN });
    expect(x.code, x.err).toBe(0);
    const c = (parse(readFileSync(join(dir, 'shop.tests.yaml'), 'utf8')) as { cases: Array<Record<string, any>> }).cases.find((k) => k.name === `run ${r.id}`)!;
    expect(c.actions).toEqual({ Notify: { error: expect.stringContaining('outbound call refused'), refused: 403 } });
    expect(c.expect).toEqual({ status: 403, body: r.body });
  });

  it('an email whose SMTP server the policy denies: it sent nothing to capture, so it is stood in with its refusal (403)', async () => {
    const r = await post('/mail', { note: 'hello' });
    expect(r).toMatchObject({ status: 403, body: { error: { status: 403, action: 'Mail' } } });
    const x = await inproc(['test', config, '--from-run', r.id, '--server', base], { SERVICE__ADMIN_TOKEN: ADMIN });
    expect(x.code, x.err).toBe(0);
    const c = (parse(readFileSync(join(dir, 'shop.tests.yaml'), 'utf8')) as { cases: Array<Record<string, any>> }).cases.find((k) => k.name === `run ${r.id}`)!;
    expect(c.actions).toEqual({ Mail: { error: expect.stringContaining('outbound call refused'), refused: 403 } });
    expect(c.expect).toEqual({ status: 403, body: r.body });
  });

  it('a record is data: a refusal status this runtime never gives is left out and said; refused_in other than settings is said and stood in', async () => {
    const plan = (await loadPlans([config], false))![0]!;
    const detail = (more: Record<string, unknown>) => ({
      id: 'r-refused', config: 'shop', interface: 'notify', status: 'failed', started_at: '2026-12-07T00:00:00.000Z', trigger: 'http',
      request: { method: 'POST', path: '/notify', params: {}, headers: {}, body: null },
      actions: [{ name: 'Notify', outcome: 'failed', attempts: 1, error: 'no', ...more }],
      outcome: { http_code: 403, body: null },
    }) as unknown as RunDetail;
    const odd = runCase(plan, detail({ refused: 200 }));
    expect(odd.case.actions).toEqual({ Notify: { error: 'no' } });
    expect(odd.notes).toEqual(['action "Notify": the run record gives refused 200, which is none of the statuses the runtime refuses with (400, 403, 422, 503): left out, its stand-in fails as a plain error']);
    expect(runCase(plan, detail({ refused: '403' })).case.actions).toEqual({ Notify: { error: 'no' } });
    const where = runCase(plan, detail({ refused: 403, refused_in: 'kind' }));
    expect(where.case.actions).toEqual({ Notify: { error: 'no', refused: 403 } });
    expect(where.notes).toEqual(['action "Notify": the run record gives refused_in "kind", which is not settings: taken as refused by the action itself']);
    // refused_in means something only with a refusal status: alone it changes nothing.
    expect(runCase(plan, detail({ refused_in: 'settings' })).case.actions).toEqual({ Notify: { error: 'no' } });
    const settings = runCase(plan, detail({ refused: 400, refused_in: 'settings' }));
    expect(settings.case).not.toHaveProperty('actions');
    expect(settings.comment).toContain('Note: action "Notify" was refused (400) while its settings or input were filled in');
  });

  it('an action named __proto__ or constructor is stood in as its own key; an error or http_status that is none is noted and left out, a name the config lacks quoted as JSON; the case passes', async () => {
    const odd = join(dir, 'odd.yaml');
    writeFileSync(odd, `
interfaces:
  odd:
    method: POST
    actions:
      - name: __proto__
        url: a|var::API|/a
      - name: constructor
        url: a|var::API|/b/a|__proto__::x|
        output: http
`);
    const plan = (await loadPlans([odd], false))![0]!;
    const made = runCase(plan, {
      id: 'r-odd', config: 'odd', interface: 'odd', status: 'failed', started_at: '2026-12-07T00:00:00.000Z', trigger: 'http',
      request: { method: 'POST', path: '/odd', params: {}, headers: {}, body: null },
      actions: [
        { name: 'Gone\u001b[2J', outcome: 'succeeded', attempts: 1, data: null },
        { name: '__proto__', outcome: 'succeeded', attempts: 1, http_status: 99999, data: { x: 1 } },
        { name: 'constructor', outcome: 'failed', attempts: 1, error: { evil: true } },
      ],
      outcome: { http_code: 500, body: { error: { status: 500, message: 'action "constructor" failed', action: 'constructor' } } },
    } as unknown as RunDetail);
    expect(Object.keys(made.case.actions!)).toEqual(['__proto__', 'constructor']);
    expect(made.case.actions!['__proto__']).toEqual({ data: { x: 1 } });
    expect(made.case.actions!['constructor']).toEqual({ error: 'failed' });
    expect(made.notes).toEqual([
      'action "Gone\\u001b[2J" is not in the config any more: left out',
      'action "__proto__": the run record gives http_status 99999, which is no HTTP status: left out',
      'action "constructor": the run record gives error {"evil":true}, which is no message: its stand-in fails with "failed"',
    ]);
    const file = join(dir, 'odd.tests.yaml');
    expect(appendCase(file, made.case, made.comment)).toBeUndefined();
    for (const path of [{}, { 'no-fastpath': true }]) {
      const r = await caseProblems([odd], { ...path, cases: file });
      expect(r.by).toEqual({ 'run r-odd': [] });
    }
  });

  it('writes a new cases file when there is none', async () => {
    const other = join(dir, 'other.tests.yaml');
    const x = await inproc(['test', config, '--from-run', okRun, '--server', base, '--cases', other], { SERVICE__ADMIN_TOKEN: ADMIN });
    expect(x.code).toBe(0);
    expect(existsSync(other)).toBe(true);
    expect((parse(readFileSync(other, 'utf8')) as { cases: unknown[] }).cases).toHaveLength(1);
  });
});

describe('the exported cases pass with the upstream gone and no network', () => {
  it('pipewright test on the file --from-run wrote (in an empty network namespace)', async () => {
    await up.close();
    for (const c of children) c.kill('SIGKILL');
    // No SERVICE__ setting at all: the cases stand in for everything the runs reached.
    const x = cli(['test', config], { SERVICE__VAR__API: '', SERVICE__VAR__DEAD: '', SERVICE__VAR__DENIED: '', SERVICE__VAR__SMTP: '', SERVICE__SECRET__UP_TOKEN: '' }, ['unshare', '-rn']);
    expect(x.err).toContain(`✓`);
    expect(x.out).toMatch(/\b9 passed, 0 failed/);
    expect(x.code).toBe(0);
    // The fast path passes the same cases.
    const fast = spawnSync('unshare', ['-rn', process.execPath, bin, 'test', config], { encoding: 'utf8', env: { ...env(), NO_COLOR: '1', SERVICE__VAR__API: '', SERVICE__VAR__DEAD: '', SERVICE__VAR__DENIED: '', SERVICE__VAR__SMTP: '', SERVICE__SECRET__UP_TOKEN: '' } });
    expect(fast.stdout, fast.stderr).toMatch(/\b9 passed, 0 failed/);
    expect(fast.status).toBe(0);
  });
});
