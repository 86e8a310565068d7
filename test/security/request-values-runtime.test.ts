// Issue 29, section 3, at run time, in both paths: where the rule confines a request value to one
// unit (a literal document match, one MQTT topic level, one JSON string, a namespace that is not the
// service's own) a hostile value stays in it or is refused with 400; the sh -c reproduction is real
// without check and cannot be compiled with it (serve, compile and run build through the same check).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileConfig } from '../../compiler/project.ts';
import { executeInterface, type RunResult } from '../../runtime/exec/run.ts';
import { closeDatabasePools } from '../../runtime/actions/database/pools.ts';
import { MemoryStore } from '../../runtime/store/memory.ts';
import { systemClock, type Services } from '../../runtime/services.ts';
import { planOf, postRequest, testEnv } from '../support/plans.ts';
import { startUpstream, type Upstream } from '../support/upstream.ts';
import { pgSchema } from '../database/helpers.ts';

const MODES = ['compiled', 'interpreted'] as const;

/** Runs `iface` in one mode; `unchecked`: the config as a build without check would run it. */
async function run(mode: (typeof MODES)[number], yaml: string, iface: string, body: unknown, o: { services?: Partial<Services>; secrets?: Record<string, string>; vars?: Record<string, string>; params?: Record<string, string>; unchecked?: boolean } = {}): Promise<RunResult> {
  const plan = await planOf(`rv_${mode}.yaml`, mode, yaml, { unchecked: o.unchecked });
  const i = plan.interfaces.find((x) => x.name === iface)!;
  return executeInterface(plan, i, postRequest(i.route, body, { params: o.params }), { trigger: 'test', env: testEnv(o.vars, o.secrets), services: { clock: systemClock, ...o.services } });
}

const errorOf = (r: RunResult) => (r.response.body as { error: { status: number; message: string; detail?: string } }).error;

describe('code: the sh -c reproduction', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pw-rce-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const script = `
interfaces:
  rce:
    method: POST
    actions:
      - name: Run
        command: { run: "/bin/sh -c 'echo a|body::t|'" }
        output_stdout: true
        output: http
  safe:
    method: POST
    actions:
      - name: Run
        command: { run: "echo a|body::t|", shell: true }
        output_stdout: true
        output: http
`;

  it('is refused by the one compile step serve, compile and run share', () => {
    const c = compileConfig('rce.yaml', script);
    expect(c.ok).toBe(false);
    expect(c.diagnostics.find((d) => d.severity === 'error')!.message).toBe('a|body::t| is inside the script that sh runs: the request\'s text would run as code');
  });

  it.each(MODES)('the reproduction is real without check, and shell: true keeps the value one word (%s)', async (mode) => {
    const pwned = join(dir, `pwned-${mode}`);
    await run(mode, script, 'rce', { t: `x; touch ${pwned}` }, { unchecked: true });
    expect(existsSync(pwned)).toBe(true);
    rmSync(pwned);
    const safe = await run(mode, script.replace(/ {2}rce:[\s\S]*?(?= {2}safe:)/, ''), 'safe', { t: `x; touch ${pwned}` });
    expect(safe.response.body).toMatchObject({ exit_code: 0, stdout: `x; touch ${pwned}\n` });
    expect(existsSync(pwned)).toBe(false);
  });
});

describe('document filters: a marker under a field is matched as a literal (Postgres)', () => {
  let db: Awaited<ReturnType<typeof pgSchema>>;
  beforeAll(async () => { db = await pgSchema('rvdocs'); });
  afterAll(async () => { await closeDatabasePools(); await db.drop(); });
  const yaml = `
databases:
  docs: { url: "a|secret::DOCS_URL|" }
interfaces:
  seed:
    method: POST
    actions:
      - name: Op
        document_operation: { collection: accounts, operation: insertMany, insert: a|body| }
        output: http
  login:
    method: POST
    actions:
      - name: Op
        document_operation: { collection: accounts, operation: find, filter: { user: a|body::user|, pw: a|body::pw| }, projection: { _id: 0, user: 1 } }
        output: http
  older:
    method: POST
    actions:
      - name: Op
        document_operation: { collection: accounts, operation: find, filter: { age: { $gt: a|body::age| }, $or: [ { user: a|body::user| }, { user: ada } ] }, projection: { _id: 0, user: 1 } }
        output: http
`;
  it.each(MODES)('{"$ne": null} matches nothing; the right values match their document (%s)', async (mode) => {
    const o = { secrets: { DOCS_URL: db.url } };
    if (mode === 'compiled') await run(mode, yaml, 'seed', [{ user: 'ada', pw: 's3cret', age: 36 }, { user: 'alan', pw: 'en1gma', age: 41 }, { user: 'odd', pw: { $ne: null }, age: 1 }], o);
    const hostile = await run(mode, yaml, 'login', { user: { $ne: null }, pw: { $ne: null } }, o);
    expect(hostile.response.status).toBe(200);
    expect(hostile.response.body).toEqual([]);
    expect((await run(mode, yaml, 'login', { user: 'ada', pw: 's3cret' }, o)).response.body).toEqual([{ user: 'ada' }]);
    // A document whose field holds that very object is matched by it: a literal, never an operator.
    expect((await run(mode, yaml, 'login', { user: 'odd', pw: { $ne: null } }, o)).response.body).toEqual([{ user: 'odd' }]);
    // Operators the config writes still apply; the value under them and under $or fields is data.
    expect((await run(mode, yaml, 'older', { age: 40, user: { $ne: null } }, o)).response.body).toEqual([]);
    expect((await run(mode, yaml, 'older', { age: 30, user: 'alan' }, o)).response.body).toEqual([{ user: 'ada' }, { user: 'alan' }]);
  });
});

describe('state namespaces: the service\'s own are refused at run time too', () => {
  // A namespace from a var (or a config built without check) can still name a reserved one.
  const yaml = `
interfaces:
  peek:
    method: POST
    actions:
      - name: Get
        state: { namespace: a|body::ns|, get: { key: a|body::key| } }
        output: http
`;
  const viaVar = `
interfaces:
  viaVar:
    method: POST
    actions:
      - name: Set
        state: { namespace: a|var::NS|, set: { key: k, value: a|body| } }
        output: http
`;
  it.each(MODES)('agent-memory:*, ws-retain and _ap/ answer 400 and the stored values stay unread and unchanged (%s)', async (mode) => {
    const store = new MemoryStore();
    await store.init();
    await store.stateSet('agent-memory:support', 'alice', [{ role: 'user', content: 'my card is 4111' }], undefined, Date.now());
    await store.stateSet('ws-retain', 'admin', { guarded: true }, undefined, Date.now());
    for (const [ns, key] of [['agent-memory:support', 'alice'], ['ws-retain', 'admin'], ['_ap/schedule', 'last:x']]) {
      const r = await run(mode, yaml, 'peek', { ns, key }, { unchecked: true, services: { store } });
      expect(r.response.status).toBe(400);
      expect(errorOf(r).message).toContain(`state: namespace ${JSON.stringify(ns)} is reserved for the service`);
      expect(JSON.stringify(r.response.body)).not.toContain('4111');
    }
    const v = await run(mode, viaVar, 'viaVar', { guarded: false }, { services: { store }, vars: { NS: 'ws-retain' } });
    expect(v.response.status).toBe(400);
    expect((await store.stateGet('ws-retain', ['admin'], Date.now())).admin).toEqual({ guarded: true });
    const ok = await run(mode, yaml, 'peek', { ns: 'mine', key: 'k' }, { unchecked: true, services: { store } });
    expect(ok.response).toMatchObject({ status: 200, body: null });
  });
});

describe('MQTT topics: a marker fills exactly one level; a bad value is 400', () => {
  const yaml = `
interfaces:
  cmd:
    method: POST
    actions:
      - name: Pub
        mqtt_publish: { topics: ["devices/a|body::id|/cmd", "audit/a|body::id|"], data: { on: true } }
        output: http
`;
  it.each(MODES)('a/b, #, +, $SYS, NUL and empty are refused before anything is published (%s)', async (mode) => {
    const published: string[][] = [];
    const mqtt = { publish: async (topics: string[]) => { published.push(topics); } };
    for (const [id, why] of [['a/b', 'contains /, which would add a topic level'], ['#', 'contains an MQTT wildcard (+ or #)'], ['x+', 'contains an MQTT wildcard (+ or #)'], ['$SYS', 'starts with $ (broker topics such as $SYS)'], ['a\u0000b', 'contains NUL'], ['', 'is empty']]) {
      const r = await run(mode, yaml, 'cmd', { id }, { services: { mqtt } });
      expect(r.response.status).toBe(400);
      expect(errorOf(r).message).toBe(`action "Pub" refused: a|body::id| fills one topic level but its value ${why}: refused`);
    }
    expect(published).toEqual([]);
    const ok = await run(mode, yaml, 'cmd', { id: 'lamp-7' }, { services: { mqtt } });
    expect(ok.response.status).toBe(200);
    expect(published).toEqual([['devices/lamp-7/cmd', 'audit/lamp-7']]);
  });
});

describe('outbound JSON text: an http.body JSON template keeps each value one JSON string', () => {
  let up: Upstream;
  beforeAll(async () => { up = await startUpstream(); });
  afterAll(async () => { await up.close(); });
  const yaml = (url: string) => `
interfaces:
  grant:
    method: POST
    route: /grant/:id
    actions:
      - name: Send
        http:
          url: ${url}/echo
          method: POST
          headers: { content-type: application/json }
          body: '{"id": "a|params::id|", "admin": false, "n": a|params::n|}'
        output: http
`;
  it.each(MODES)('id=42", "admin": true, "x": " stays the id (%s)', async (mode) => {
    const id = '42", "admin": true, "x": "';
    const r = await run(mode, yaml(up.url), 'grant', null, { params: { id, n: '7, "admin": true' } });
    expect(r.response.status).toBe(200);
    const sent = JSON.parse((r.response.body as { body: string }).body) as Record<string, unknown>;
    expect(sent).toEqual({ id, admin: false, n: '7, "admin": true' });
  });
});
