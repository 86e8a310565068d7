// A log line for every run, whatever started it (issue 31): HTTP (the request's line carries the run's
// trigger and run_status: one line per request), schedule, MQTT, WebSocket, MCP and a callback resume
// (a "run finished" line; "run suspended" and "run resumed" around a wait, the resume request's line
// naming the resumed run), an operator's cancel (the cancelled run's line) and re-run (the new run's),
// in both execution paths, on one server as `serve` wires it. `pipewright
// run` writes the same line on stderr (test/cli.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { buildApp } from '../../runtime/server/app.ts';
import { runHooks } from '../../runtime/server/hooks.ts';
import { startMqtt } from '../../runtime/mqtt/index.ts';
import { startSchedules } from '../../runtime/schedule/index.ts';
import { startResumer } from '../../runtime/durable/resumer.ts';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { PostgresStore } from '../../runtime/store/postgres.ts';
import { systemClock, type Services } from '../../runtime/services.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { planOf, testEnv } from '../support/plans.ts';
import { open } from '../realtime/helpers.ts';
import { DATABASE_URL, dropSchema, schemaName } from '../durable/helpers.ts';
import { capturedLog, until, type LogLine } from './helpers.ts';

const CONFIG = `
interfaces:
  hello:
    actions: [{ name: A, input: { hi: a|params::who->default("you")| }, output: http }]
  tick:
    schedule: { cron: "* * * * *", enabled: true }
    actions: [{ name: A, input: ticked, output: http }]
  ingest:
    mqtt: orders/+
    actions: [{ name: A, input: a|body|, output: http }]
  sock:
    ws: true
    public: true
    actions: [{ name: A, input: a|body|, output: http }]
  tool:
    mcp: { enabled: true }
    actions: [{ name: A, input: { got: a|body::n| }, output: http }]
  broken:
    mqtt: broken
    assert:
      tests: [{ value: a|body::n|, is_greater_than: 0 }]
    actions: [{ name: A, input: a|body|, output: http }]
  later:
    mqtt: later
    actions:
      - name: Nap
        delay: 200ms
      - name: After
        input: awake
        output: http
  approval:
    method: POST
    actions:
      - name: Token
        input: a|uuid|
      - name: Ask
        http: { url: a|var::API|/register, method: POST, body: { token: a|Token| } }
      - name: Approval
        wait_for_callback: { token: a|Token|, timeout: 1h }
      - name: Result
        input: { approved: a|Approval::approved| }
        output: http
`;

const ADMIN = 'admin-token-of-the-run-lines-test';
type Up = Awaited<ReturnType<typeof countingUpstream>>;
let up: Up;
let store: PostgresStore;
const schema = schemaName('runlines');
beforeAll(async () => {
  up = await countingUpstream({ '/register': (_q, res) => json(res, 200, { ok: true }) });
  store = new PostgresStore({ url: DATABASE_URL, schema });
  await store.init();
});
afterAll(async () => { await store.close(); await dropSchema(schema); await up.close(); await closeHttpPools(); });

const runLine = (l: LogLine) => l.msg === 'run finished' || l.msg === 'run suspended' || l.msg === 'run resumed';
/** A line's run fields, the time-dependent ones checked for their type. */
function shape(l: LogLine): Record<string, unknown> {
  expect(typeof l.duration_ms).toBe('number');
  expect(l.run_id).toMatch(/^[0-9a-f-]{36}$/);
  const { time: _t, duration_ms: _d, run_id: _r, req_id: _q, ...rest } = l;
  return rest;
}

describe.each(['compiled', 'interpreted'] as const)('a line per run, whatever started it (%s)', (mode) => {
  // Random ids: both modes share the store (run ids, resume tokens).
  const vars: Record<string, string> = {};
  const env = { ...testEnv(vars), uuid: () => randomUUID() };
  const { log, lines } = capturedLog(env);
  const closers: Array<() => Promise<unknown>> = [];
  let http = '';
  let broker = 0;
  afterAll(async () => { for (const c of closers.reverse()) await c(); });

  beforeAll(async () => {
    vars.API = up.url;
    const plan = await planOf('runlines.yaml', mode, CONFIG);
    // Every second (configs take 5 fields; seconds are for tests).
    plan.interfaces.find((i) => i.name === 'tick')!.schedule = { cron: '* * * * * *', enabled: true };
    const services: Services = { clock: systemClock, store, log, maxDelayMs: 100 };
    const hooks = runHooks({ env, services, warn: () => {} });
    const app = buildApp([plan], { env, services, hooks, node: `n-${mode}`, adminToken: ADMIN, warn: () => {} });
    const mq = (await startMqtt(app, [plan], { environment: 'dev', env, services, node: `n-${mode}`, host: '127.0.0.1', port: 0, warn: () => {}, afterRun: hooks.afterRun }))!;
    const resumer = startResumer({ plans: [plan], store, env, services, node: `n-${mode}`, hooks, pollMs: 50 });
    await app.listen({ port: 0, host: '127.0.0.1' });
    closers.push(() => app.close(), () => mq.close(), () => resumer.stop());
    http = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    broker = mq.broker!.port!;
    const schedules = startSchedules([plan], { store, env, services, node: `n-${mode}`, seconds: true, log: () => {}, afterRun: hooks.afterRun });
    closers.push(() => schedules.stop());
  });

  it('HTTP: the request line is the run\'s line (trigger, run_status), with no second line', async () => {
    const res = await fetch(`${http}/hello?who=ada`);
    const id = res.headers.get('x-run-id');
    const line = await until(() => lines.find((l) => l.msg === 'request' && l.run_id === id));
    expect(line).toMatchObject({ level: 30, req_id: id, config: 'runlines', interface: 'hello', trigger: 'http', run_status: 'succeeded', method: 'GET', status: 200 });
    expect(lines.filter((l) => l.run_id === id && runLine(l))).toEqual([]);
    // A request that ran nothing has no run fields.
    await fetch(`${http}/nowhere`);
    expect(await until(() => lines.find((l) => l.msg === 'request' && l.path === '/nowhere'))).not.toHaveProperty('trigger');
  });

  it('schedule: a tick\'s run has its line', async () => {
    const line = await until(() => lines.find((l) => l.msg === 'run finished' && l.trigger === 'schedule'));
    expect(shape(line)).toEqual({ level: 30, msg: 'run finished', config: 'runlines', interface: 'tick', trigger: 'schedule', status: 'succeeded', http_status: 200 });
  });

  it('MQTT: a publish\'s run has its line, a failed one at warn with why', async () => {
    const pub = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker}`, { protocolVersion: 4 });
    try {
      await pub.publishAsync('dev/ingest/orders/eu', JSON.stringify({ id: 7 }), { qos: 1 });
      await pub.publishAsync('dev/broken/broken', JSON.stringify({ n: 0 }), { qos: 1 });
    } finally { await pub.endAsync(); }
    const ok = await until(() => lines.find((l) => l.msg === 'run finished' && l.interface === 'ingest'));
    expect(shape(ok)).toEqual({ level: 30, msg: 'run finished', config: 'runlines', interface: 'ingest', trigger: 'mqtt', status: 'succeeded', http_status: 200 });
    const failed = await until(() => lines.find((l) => l.msg === 'run finished' && l.interface === 'broken'));
    expect(shape(failed)).toMatchObject({ level: 40, trigger: 'mqtt', status: 'failed', http_status: 422, error: 'assertion failed' });
  });

  it('a run that waits past SERVICE__MAX_DELAY_SECS: suspended (where it waits), resumed when due, finished', async () => {
    const pub = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker}`, { protocolVersion: 4 });
    try { await pub.publishAsync('dev/later/later', '{}', { qos: 1 }); } finally { await pub.endAsync(); }
    const finished = await until(() => lines.find((l) => l.msg === 'run finished' && l.interface === 'later'));
    const mine = lines.filter((l) => l.run_id === finished.run_id).map(shape);
    const base = { config: 'runlines', interface: 'later', trigger: 'mqtt' };
    expect(mine).toEqual([
      { level: 30, msg: 'run suspended', ...base, status: 'suspended', http_status: 202, wake: { reason: 'delay', action: 'Nap', at: expect.stringMatching(/^\d{4}-.*Z$/) } },
      { level: 30, msg: 'run resumed', ...base, status: 'running', resumed_by: 'wake', action: 'Nap' },
      { level: 30, msg: 'run finished', ...base, status: 'succeeded', http_status: 200 },
    ]);
    // Since the run started, its wait included.
    expect(finished.duration_ms as number).toBeGreaterThanOrEqual(200);
  });

  it('WebSocket: a frame\'s run has its line', async () => {
    const c = await open(`${http.replace('http', 'ws')}/ws/local/dev/sock`);
    try {
      c.ws.send(JSON.stringify({ type: 'ap_request', id: 'r1', body: { a: 1 } }));
      expect(await c.next()).toMatchObject({ type: 'ap_result', status: 200 });
    } finally { c.ws.terminate(); }
    const line = await until(() => lines.find((l) => l.msg === 'run finished' && l.interface === 'sock'));
    expect(shape(line)).toEqual({ level: 30, msg: 'run finished', config: 'runlines', interface: 'sock', trigger: 'ws', status: 'succeeded', http_status: 200 });
  });

  it('MCP: a tool call\'s run has its line', async () => {
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${http}/local/dev/mcp`)));
    try {
      expect(await client.callTool({ name: 'tool', arguments: { n: 3 } })).toMatchObject({ structuredContent: { got: 3 } });
    } finally { await client.close(); }
    const line = await until(() => lines.find((l) => l.msg === 'run finished' && l.interface === 'tool'));
    expect(shape(line)).toEqual({ level: 30, msg: 'run finished', config: 'runlines', interface: 'tool', trigger: 'mcp', status: 'succeeded', http_status: 200 });
  });

  it('callback resume: suspended (the request line), resumed (naming the resume request) and finished, all under the run\'s id', async () => {
    const res = await fetch(`${http}/approval`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(202);
    const id = res.headers.get('x-run-id')!;
    const token = JSON.parse(up.hits.filter((h) => h.path === '/register').at(-1)!.body).token as string;
    const resume = await fetch(`${http}/_ap/resume/${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"approved":true}' });
    expect(resume.status).toBe(202);
    expect(resume.headers.get('x-run-id')).toBe(id);
    const finished = await until(() => lines.find((l) => l.msg === 'run finished' && l.run_id === id));
    const mine = lines.filter((l) => l.run_id === id);
    // The resumed line may come before the resume request's (the run goes on as the answer leaves).
    expect(mine.map((l) => l.msg).sort()).toEqual(['request', 'request', 'run finished', 'run resumed']);
    expect(mine[0]).toMatchObject({ interface: 'approval', trigger: 'http', run_status: 'suspended', status: 202, path: '/approval' });
    // The resume request's line: the resumed run's id, the token never written.
    const resumeLine = mine.find((l) => l.path === '/_ap/resume/[token]')!;
    expect(resumeLine).toMatchObject({ msg: 'request', status: 202 });
    expect(resumeLine.req_id).not.toBe(id);
    const resumed = mine.find((l) => l.msg === 'run resumed')!;
    expect(shape(resumed)).toEqual({ level: 30, msg: 'run resumed', config: 'runlines', interface: 'approval', trigger: 'http', status: 'running', resumed_by: 'callback', action: 'Approval' });
    expect(resumed.req_id).toBe(resumeLine.req_id);
    expect(shape(finished)).toEqual({ level: 30, msg: 'run finished', config: 'runlines', interface: 'approval', trigger: 'http', status: 'succeeded', http_status: 200 });
    expect(JSON.stringify(lines)).not.toContain(token);
  });

  it('cancel and re-run: the cancelled run has its line (status cancelled), a re-run\'s new run its own', async () => {
    const res = await fetch(`${http}/approval`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(202);
    const id = res.headers.get('x-run-id')!;
    const admin = { authorization: `Bearer ${ADMIN}` };
    expect((await fetch(`${http}/_ap/runs/${id}/cancel`, { method: 'POST', headers: admin })).status).toBe(200);
    const cancelled = await until(() => lines.find((l) => l.msg === 'run finished' && l.run_id === id));
    expect(shape(cancelled)).toMatchObject({ msg: 'run finished', config: 'runlines', interface: 'approval', trigger: 'http', status: 'cancelled' });
    const rerun = await fetch(`${http}/_ap/runs/${id}/rerun`, { method: 'POST', headers: admin });
    expect(rerun.status).toBe(200);
    const again = (await rerun.json() as { run_id: string }).run_id;
    expect(again).not.toBe(id);
    // It waits for its callback again: its line says so.
    const line = await until(() => lines.find((l) => runLine(l) && l.run_id === again));
    expect(shape(line)).toMatchObject({ msg: 'run suspended', config: 'runlines', interface: 'approval', trigger: 'http', status: 'suspended', http_status: 202 });
  });
});
