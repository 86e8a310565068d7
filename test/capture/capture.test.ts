// Execution history: which runs are recorded (off, errors, all, windows), what is redacted,
// inspect-only runs, replays, and the admin-only management routes.
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { executeInterface, type RunResult } from '../../runtime/exec/run.ts';
import type { Plan } from '../../runtime/plan.ts';
import type { RequestData } from '../../runtime/run-state.ts';
import { systemClock } from '../../runtime/services.ts';
import { MemoryStore } from '../../runtime/store/memory.ts';
import { createCapture, redactSecrets, registerCaptureRoutes, replay, ReplayError } from '../../runtime/capture/index.ts';
import { makeRedactor } from '../../runtime/values/redact.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { planOf, testEnv } from '../support/plans.ts';

type Up = Awaited<ReturnType<typeof countingUpstream>>;
let up: Up;
beforeAll(async () => {
  up = await countingUpstream({
    '/fail': (_q, res) => json(res, 503, { down: true }),
    '/send': (_q, res) => json(res, 200, { sent: true }, { 'set-cookie': 'sid=abc', 'x-api-key': 'k1', 'x-request-id': 'r1' }),
  });
});
afterAll(async () => { await up.close(); await closeHttpPools(); });

const SECRET = 's3cr3t-value';
let shared: ReturnType<typeof testEnv> | undefined;
/** One environment for the file: its uuids (run ids) never repeat. */
const env = () => (shared ??= testEnv({ API: up.url }, { TOKEN: SECRET }));
const services = { clock: systemClock };

let seq = 0;
async function planWith(capture: unknown, mode: 'compiled' | 'interpreted' = 'interpreted'): Promise<Plan> {
  const plan = await planOf(`cap${++seq}.yaml`, mode, `
interfaces:
  good:
    method: POST
    actions:
      - name: Echo
        input:
          got: a|body|
          token: a|secret::TOKEN|
          note: "Bearer a|secret::TOKEN| in text"
  bad:
    actions:
      - name: Call
        url: a|var::API|/fail
  send:
    actions:
      - name: Prepare
        input: ready
      - name: Send
        url: a|var::API|/send
        replayable: false
      - name: Compensate
        run_when_failed: [Send]
        input: undo
        replayable: false
`);
  for (const i of plan.interfaces) i.capture = capture as never;
  return plan;
}

const request = (body: unknown = { msg: `hello ${SECRET}` }): RequestData => ({
  method: 'POST', path: '/good', params: {}, body, rawBody: JSON.stringify(body),
  headers: { authorization: 'Bearer user-token', cookie: 'c=1', 'X-Api-Key': 'k', 'x-trace': 't1', 'content-type': 'application/json' },
});

async function runAndCapture(plan: Plan, name: string, cap: ReturnType<typeof createCapture>): Promise<RunResult> {
  const i = plan.interfaces.find((x) => x.name === name)!;
  const r = await executeInterface(plan, i, request(), { trigger: 'http', env: env(), services });
  await cap.afterRun(plan, i, r, [SECRET]);
  return r;
}

describe('capture modes', () => {
  it.each([undefined, 'off'])('%s records nothing', async (setting) => {
    const store = new MemoryStore();
    const plan = await planWith(setting);
    const cap = createCapture({ store, now: Date.now });
    await runAndCapture(plan, 'good', cap);
    await runAndCapture(plan, 'bad', cap);
    expect(await store.listCaptures({})).toEqual([]);
  });

  it('errors records failed runs only', async () => {
    const store = new MemoryStore();
    const plan = await planWith('errors');
    const cap = createCapture({ store, now: Date.now });
    await runAndCapture(plan, 'good', cap);
    const bad = await runAndCapture(plan, 'bad', cap);
    const list = await store.listCaptures({});
    expect(list.map((c) => [c.iface, c.status, c.id])).toEqual([['bad', 'failed', bad.state.id]]);
  });

  it.each(['compiled', 'interpreted'] as const)('all records every run (%s)', async (mode) => {
    const store = new MemoryStore();
    const plan = await planWith('all', mode);
    const cap = createCapture({ store, now: Date.now });
    await runAndCapture(plan, 'good', cap);
    await runAndCapture(plan, 'bad', cap);
    expect((await store.listCaptures({ config: plan.name })).map((c) => c.status).sort()).toEqual(['failed', 'succeeded']);
  });

  it('a window closes after for_runs captured runs (runs the mode skips do not count)', async () => {
    const store = new MemoryStore();
    const plan = await planWith({ mode: 'errors', for_runs: 2 });
    const cap = createCapture({ store, now: Date.now });
    for (const name of ['good', 'bad', 'good', 'bad', 'bad']) await runAndCapture(plan, name, cap);
    expect((await store.listCaptures({})).map((c) => c.iface)).toEqual(['bad', 'bad']);
  });

  it('a window closes after for_minutes, counted from load', async () => {
    const store = new MemoryStore();
    let now = Date.parse('2031-01-01T00:00:00Z');
    const plan = await planWith({ mode: 'all', for_minutes: 2, for_runs: 10 });
    const cap = createCapture({ store, now: () => now });
    cap.open([plan]);
    now += 60_000;
    await runAndCapture(plan, 'good', cap);
    now += 59_000;
    await runAndCapture(plan, 'good', cap);
    now += 1_000; // two minutes after opening
    await runAndCapture(plan, 'good', cap);
    const list = await store.listCaptures({});
    expect(list.map((c) => c.at)).toEqual(['2031-01-01T00:01:59.000Z', '2031-01-01T00:01:00.000Z']);
  });

  it('a window opens at the first run when not opened at load; a reloaded plan gets a new one', async () => {
    const store = new MemoryStore();
    let now = 0;
    const cap = createCapture({ store, now: () => now });
    const plan = await planWith({ mode: 'all', for_runs: 1 });
    now = 10 * 60_000;
    await runAndCapture(plan, 'good', cap);
    await runAndCapture(plan, 'good', cap);
    expect(await store.listCaptures({})).toHaveLength(1);
    const reloaded = await planWith({ mode: 'all', for_runs: 1 });
    await runAndCapture(reloaded, 'good', cap);
    expect(await store.listCaptures({})).toHaveLength(2);
  });
});

describe('redaction', () => {
  it('replaces secret values and credential headers, and nothing else', async () => {
    const store = new MemoryStore();
    const plan = await planWith('all');
    const cap = createCapture({ store, now: Date.now });
    const r = await runAndCapture(plan, 'good', cap);
    const c = (await store.getCapture(r.state.id))!;
    expect(c.state.request.headers).toEqual({ authorization: '[redacted]', cookie: '[redacted]', 'X-Api-Key': '[redacted]', 'x-trace': 't1', 'content-type': 'application/json' });
    expect(c.state.request.body).toEqual({ msg: 'hello [redacted]' });
    expect(c.state.request.rawBody).toBe('{"msg":"hello [redacted]"}');
    expect(c.state.steps.Echo!.data).toEqual({ got: { msg: 'hello [redacted]' }, token: '[redacted]', note: 'Bearer [redacted] in text' });
    expect(JSON.stringify(c)).not.toContain(SECRET);
    expect(c.state.response!.status).toBe(200);
    // The live run is untouched.
    expect((r.state.steps.Echo!.data as { token: string }).token).toBe(SECRET);
    expect(r.state.request.headers.authorization).toBe('Bearer user-token');
  });

  it("redacts credential headers of an action's response", async () => {
    const store = new MemoryStore();
    const plan = await planWith('all');
    const r = await runAndCapture(plan, 'send', createCapture({ store, now: Date.now }));
    const h = (await store.getCapture(r.state.id))!.state.steps.Send!.headers!;
    expect(h).toMatchObject({ 'set-cookie': '[redacted]', 'x-api-key': '[redacted]', 'x-request-id': 'r1' });
  });

  it('catches the URL-encoded form and keeps numbers that hold no secret', () => {
    expect(redactSecrets({ url: 'https://x/?k=p%40ss%20word', n: 1234, m: 42, list: ['p@ss word'] }, ['p@ss word', '1234', ''])).toEqual({
      url: 'https://x/?k=[redacted]', n: '[redacted]', m: 42, list: ['[redacted]'],
    });
  });

  it('returns a value holding no secret as it is, and still finds one in a key, an escaped string or a number', () => {
    const redact = makeRedactor(['s"e\\cret', '98765']);
    const clean = { a: [1, { b: 'text' }], n: 42 };
    expect(redact(clean)).toBe(clean);
    expect(redact({ ['k s"e\\cret']: 1, v: 'x s"e\\cret y', n: 1987654, d: new Date(0) })).toEqual({
      'k [redacted]': 1, v: 'x [redacted] y', n: '[redacted]', d: {},
    });
  });
});

describe('replay', () => {
  it.each(['compiled', 'interpreted'] as const)('records which action made a run inspect-only; a skipped one does not count (%s)', async (mode) => {
    const store = new MemoryStore();
    const plan = await planWith('all', mode);
    const r = await runAndCapture(plan, 'send', createCapture({ store, now: Date.now }));
    expect(r.state.steps.Compensate!.outcome).toBe('skipped');
    expect(await store.getCapture(r.state.id)).toMatchObject({ replayable: false, notReplayableBecause: 'Send' });
  });

  it('re-runs the captured request as a new run', async () => {
    const store = new MemoryStore();
    const plan = await planWith('all');
    const r = await runAndCapture(plan, 'good', createCapture({ store, now: Date.now }));
    const c = (await store.getCapture(r.state.id))!;
    expect(c.replayable).toBe(true);
    const again = await replay(plan, c, { env: env(), services, runId: c.id } as never);
    expect(again.state.id).not.toBe(c.id);
    expect(again.state.status).toBe('succeeded');
    expect(again.state.trigger).toBe('http');
    expect(again.state.request).toEqual(c.state.request); // as captured: redacted stays redacted
  });

  it('refuses an inspect-only capture', async () => {
    const store = new MemoryStore();
    const plan = await planWith('all');
    const before = up.count('/send');
    const r = await runAndCapture(plan, 'send', createCapture({ store, now: Date.now }));
    const c = (await store.getCapture(r.state.id))!;
    const err = await replay(plan, c, { env: env(), services }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ReplayError);
    expect((err as ReplayError).message).toBe(`capture ${c.id} is inspect-only: action "Send" is replayable: false`);
    expect(up.count('/send')).toBe(before + 1);
  });
});

describe('management routes', () => {
  async function setup(adminToken?: string) {
    const store = new MemoryStore();
    const plan = await planWith('all');
    const cap = createCapture({ store, now: Date.now });
    const good = await runAndCapture(plan, 'good', cap);
    const send = await runAndCapture(plan, 'send', cap);
    const app = Fastify();
    registerCaptureRoutes(app, { store, plans: [plan], runOpts: { env: env(), services }, ...(adminToken ? { adminToken } : {}) });
    return { app, plan, good, send };
  }
  const auth = { authorization: 'Bearer adm1n' };

  it('answer 404 when no admin token is configured', async () => {
    const { app, good } = await setup();
    expect((await app.inject({ url: '/_ap/captures', headers: auth })).statusCode).toBe(404);
    expect((await app.inject({ url: `/_ap/captures/${good.state.id}`, headers: auth })).statusCode).toBe(404);
    expect((await app.inject({ method: 'POST', url: `/_ap/captures/${good.state.id}/replay`, headers: auth })).statusCode).toBe(404);
  });

  it('require the admin token', async () => {
    const { app, good } = await setup('adm1n');
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: 'adm1n' }]) {
      const res = await app.inject({ url: `/_ap/captures/${good.state.id}`, headers });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
    }
    expect((await app.inject({ method: 'POST', url: `/_ap/captures/${good.state.id}/replay` })).statusCode).toBe(401);
  });

  it('list, read and replay captures', async () => {
    const { app, plan, good, send } = await setup('adm1n');
    const list = (await app.inject({ url: `/_ap/captures?config=${plan.name}&interface=good&limit=5`, headers: auth })).json();
    expect(list.captures).toEqual([expect.objectContaining({ id: good.state.id, iface: 'good', status: 'succeeded', replayable: true })]);
    expect(list.captures[0].state).toBeUndefined();
    expect((await app.inject({ url: '/_ap/captures?limit=0', headers: auth })).statusCode).toBe(400);
    expect((await app.inject({ url: '/_ap/captures', headers: auth })).json().captures).toHaveLength(2);

    const one = await app.inject({ url: `/_ap/captures/${good.state.id}`, headers: auth });
    expect(one.json()).toMatchObject({ id: good.state.id, state: { request: { headers: { authorization: '[redacted]' } } } });
    expect((await app.inject({ url: '/_ap/captures/nope', headers: auth })).statusCode).toBe(404);

    const rep = await app.inject({ method: 'POST', url: `/_ap/captures/${good.state.id}/replay`, headers: auth });
    expect(rep.statusCode).toBe(200);
    const body = rep.json();
    expect(body).toMatchObject({ replay_of: good.state.id, status: 'succeeded', response: { status: 200 } });
    expect(body.run_id).not.toBe(good.state.id);
    expect(rep.headers['x-run-id']).toBe(body.run_id);

    const refused = await app.inject({ method: 'POST', url: `/_ap/captures/${send.state.id}/replay`, headers: auth });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toContain('inspect-only');
    expect((await app.inject({ method: 'POST', url: '/_ap/captures/nope/replay', headers: auth })).statusCode).toBe(404);
  });
});
