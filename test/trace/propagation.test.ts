// W3C trace context on every outbound HTTP call and every inbound surface (issue 31 §4), against the
// in-process OTLP receiver: an agent's model calls and remote MCP server calls carry the attempt's
// context (the remote pipewright, traced too, parents its tool run on it: MCP inbound), its local
// tool runs are children of the attempt; discover's Kubernetes and Docker API calls carry it; the
// on_error handler's run is a child of the failed run; a callback resume continues the run's trace
// and links the resume request's context; a re-run is parented by the admin request; a scheduled
// run is a trace root. Both execution paths.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../runtime/server/app.ts';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { clearDiscoverCache } from '../../runtime/actions/discover/cache.ts';
import { PostgresStore } from '../../runtime/store/postgres.ts';
import { MemoryStore } from '../../runtime/store/memory.ts';
import { startSchedules } from '../../runtime/schedule/index.ts';
import { systemClock, type Services } from '../../runtime/services.ts';
import { startTracing } from '../../runtime/trace/otel.ts';
import { traceHeadersBeside } from '../../runtime/tracing.ts';
import type { RunResult } from '../../runtime/exec/run.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { planOf, testEnv } from '../support/plans.ts';
import { DATABASE_URL, dropSchema, schemaName, until } from '../durable/helpers.ts';
import { hex, otlpReceiver, plain, traceparentOf, type OtlpSpan } from '../support/otlp-receiver.ts';
import { container, dockerApi, kubernetesApi, pod } from '../discover/servers.ts';

const ADMIN = 'admin-token-for-the-trace-tests';
let receiver: Awaited<ReturnType<typeof otlpReceiver>>;
let up: Awaited<ReturnType<typeof countingUpstream>>;
let modelServer: Server;
let modelUrl: string;
const modelCalls: Array<string | undefined> = [];
let k8s: Awaited<ReturnType<typeof kubernetesApi>>;
let docker: Awaited<ReturnType<typeof dockerApi>>;
let store: PostgresStore;
const schema = schemaName('traceprop');
const sa = mkdtempSync(join(tmpdir(), 'pw-trace-sa-'));

beforeAll(async () => {
  receiver = await otlpReceiver();
  up = await countingUpstream({ '/fail': (_q, res) => json(res, 500, { down: true }), '/*': (_q, res) => json(res, 200, { ok: true }) });
  // A chat-completions server: the first call of a conversation asks for both tools, the second answers.
  modelServer = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      modelCalls.push(req.headers.traceparent as string | undefined);
      const { messages } = JSON.parse(raw) as { messages: Array<{ role: string }> };
      const message = messages.some((m) => m.role === 'tool')
        ? { role: 'assistant', content: 'done' }
        : { role: 'assistant', content: null, tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":3}' } },
          { id: 'c2', type: 'function', function: { name: 'shout', arguments: '{"text":"hi"}' } },
        ] };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ message }] }));
    });
  });
  await new Promise<void>((r) => modelServer.listen(0, '127.0.0.1', r));
  modelUrl = `http://127.0.0.1:${(modelServer.address() as AddressInfo).port}/v1/chat/completions`;
  k8s = await kubernetesApi('sa-token', [pod({ name: 'api-1', ip: '10.0.0.1', namespace: 'default', labels: { app: 'api' } })]);
  docker = await dockerApi([container({ name: 'web-1', labels: { app: 'web' } })]);
  writeFileSync(join(sa, 'token'), 'sa-token\n');
  writeFileSync(join(sa, 'namespace'), 'default');
  Object.assign(process.env, { SERVICE__KUBERNETES_API_URL: k8s.url, SERVICE__KUBERNETES_TOKEN_FILE: join(sa, 'token'), SERVICE__KUBERNETES_NAMESPACE_FILE: join(sa, 'namespace'), SERVICE__KUBERNETES_CA_FILE: join(sa, 'ca.crt') });
  store = new PostgresStore({ url: DATABASE_URL, schema });
  await store.init();
});
afterAll(async () => {
  for (const k of ['API_URL', 'TOKEN_FILE', 'NAMESPACE_FILE', 'CA_FILE']) delete process.env[`SERVICE__KUBERNETES_${k}`];
  await store.close();
  await dropSchema(schema);
  await Promise.all([receiver.close(), up.close(), k8s.close(), docker.close(), new Promise((r) => modelServer.close(r))]);
  await closeHttpPools();
});

const CONFIG = `
on_error:
  interface: alert
interfaces:
  ask:
    method: POST
    actions:
      - name: Agent
        agent:
          url: a|var::MODEL_URL|
          model: m
          input: a|body::q|
          tools: [add]
          mcp: [{ url: a|var::REMOTE| }]
        output: http
  add:
    actions: [{ name: Sum, input: { sum: a|body::a| }, output: http }]
  members:
    actions:
      - name: Find
        discover: { kubernetes: { label_selector: app=api }, docker: { labels: { app: web }, socket: a|var::DOCKER| }, cache_ttl_secs: 0 }
        output: http
  broken:
    actions:
      - name: Fail
        url: a|var::API|/fail
        output: http
  alert:
    actions: [{ name: Note, input: a|body::run_uuid|, output: http }]
  approve:
    method: POST
    actions:
      - name: Token
        input: a|uuid|
      - name: Approval
        wait_for_callback: { token: a|Token|, timeout: 1h }
      - name: Done
        input: a|Approval::by|
        output: http
`;

const REMOTE = `
interfaces:
  shout:
    mcp: { enabled: true }
    actions:
      - name: Up
        input: a|body::text|
        post_transforms: [{ extract_with_jq: "ascii_upcase" }]
        output: http
`;

/** The spans of one trace, once `n` of them arrived. */
const spansOf = (tracer: { flush(): Promise<void> }, traceId: string, n: number): Promise<OtlpSpan[]> =>
  until(async () => { await tracer.flush(); const s = receiver.spans.filter((x) => x.traceId === traceId); return s.length >= n ? s : undefined; });
const named = (spans: OtlpSpan[], name: string) => spans.filter((s) => s.name === name);

describe('trace headers beside configured ones', () => {
  it('a configured traceparent (any case) wins and drops the tracestate; a configured tracestate wins alone', () => {
    const t = { traceparent: '00-a-b-01', tracestate: 'v=1' };
    expect(traceHeadersBeside(t, {})).toEqual(t);
    expect(traceHeadersBeside(t, { TraceParent: 'x' })).toEqual({});
    expect(traceHeadersBeside(t, { tracestate: 'mine' })).toEqual({ traceparent: '00-a-b-01' });
    expect(traceHeadersBeside(undefined, {})).toEqual({});
  });

  it('an inbound context that is not W3C (CR/LF, wrong lengths, non-hex, extra parts) is not continued: a new trace, and nothing of it reaches the outbound headers', async () => {
    const tracer = startTracing({ serviceName: 'hostile', node: 'h', url: receiver.url, scheduleDelayMs: 50 });
    const W3C = /^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;
    const good = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    for (const traceparent of [`${good}\r\nx-injected: 1`, '00-0af7651916cd43dd8448eb211c80319-b7ad6b7169203331-01', '00-0af7651916cd43dd8448eb211c80319z-b7ad6b7169203331-01', `${good}-extra`, 'ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01']) {
      const run = { id: randomUUID(), config: 'c', iface: 'i', trigger: 'http' } as unknown as RunResult['state'];
      tracer.startRun(run, { traceparent, tracestate: 'k=v\r\nx-injected: 1' });
      expect(run.trace!.traceparent).toMatch(W3C);
      expect(run.trace!.traceparent.split('-')[1]).not.toBe('0af7651916cd43dd8448eb211c80319c');
      expect(JSON.stringify(run.trace)).not.toContain('injected');
      tracer.endRun(run, 200);
    }
    // A valid one is continued, its tracestate kept.
    const run = { id: randomUUID(), config: 'c', iface: 'i', trigger: 'http' } as unknown as RunResult['state'];
    tracer.startRun(run, { traceparent: good, tracestate: 'k=v' });
    expect(run.trace).toEqual({ traceparent: expect.stringMatching(/^00-0af7651916cd43dd8448eb211c80319c-[0-9a-f]{16}-01$/), tracestate: 'k=v' });
    tracer.endRun(run, 200);
    await tracer.shutdown();
  });
});

describe.each(['compiled', 'interpreted'] as const)('trace context (%s)', (mode) => {
  const vars: Record<string, string> = {};
  const env = { ...testEnv({}), uuid: () => randomUUID(), variable: (k: string) => vars[k] };
  let remote: FastifyInstance;
  let remoteTracer: ReturnType<typeof startTracing>;
  beforeAll(async () => {
    remoteTracer = startTracing({ serviceName: 'remote', node: `r-${mode}`, url: receiver.url, scheduleDelayMs: 50 });
    remote = buildApp([await planOf('remote.yaml', mode, REMOTE)], { env: testEnv(), services: { clock: systemClock, tracer: remoteTracer }, warn: () => {} });
    await remote.listen({ port: 0, host: '127.0.0.1' });
    Object.assign(vars, { MODEL_URL: modelUrl, REMOTE: `http://127.0.0.1:${(remote.server.address() as AddressInfo).port}/local/dev/mcp`, API: up.url, DOCKER: docker.socket });
  });
  afterAll(async () => { await remote.close(); await remoteTracer.shutdown(); });

  it('an agent\'s model calls and MCP server calls carry its attempt\'s context; its tool runs (local, and remote over MCP) are the attempt\'s children', async () => {
    const tracer = startTracing({ serviceName: 'shop', node: `a-${mode}`, url: receiver.url, scheduleDelayMs: 50 });
    const app = buildApp([await planOf('prop.yaml', mode, CONFIG)], { env, services: { clock: systemClock, tracer }, warn: () => {} });
    modelCalls.length = 0;
    const traceId = hex(32);
    const res = await app.inject({ method: 'POST', url: '/ask', payload: { q: 'go' }, headers: { traceparent: traceparentOf(traceId, hex(16)) } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'done' });
    await remoteTracer.flush();
    const spans = await spansOf(tracer, traceId, 4);
    await app.close();
    await tracer.shutdown();
    const [attempt] = named(spans, 'action Agent');
    expect(modelCalls).toEqual([traceparentOf(traceId, attempt!.spanId), traceparentOf(traceId, attempt!.spanId)]);
    const local = named(spans, 'run prop.add')[0]!;
    expect(local.parentSpanId).toBe(attempt!.spanId);
    expect(plain(local.attributes)['pipewright.trigger']).toBe('agent');
    // The remote pipewright read the MCP request's traceparent: its tool run is in this trace.
    const shout = named(spans, 'run remote.shout')[0]!;
    expect(shout.parentSpanId).toBe(attempt!.spanId);
    expect(shout.resource['service.name']).toBe('remote');
    expect(plain(shout.attributes)['pipewright.trigger']).toBe('mcp');
  });

  it('discover\'s Kubernetes and Docker API calls carry the attempt\'s context', async () => {
    clearDiscoverCache();
    const tracer = startTracing({ serviceName: 'shop', node: `d-${mode}`, url: receiver.url, scheduleDelayMs: 50 });
    const app = buildApp([await planOf('prop.yaml', mode, CONFIG)], { env, services: { clock: systemClock, tracer }, warn: () => {} });
    const traceId = hex(32);
    const res = await app.inject({ url: '/members', headers: { traceparent: traceparentOf(traceId, hex(16)) } });
    expect(res.statusCode).toBe(200);
    expect(res.json().map((m: { name: string }) => m.name)).toEqual(['api-1', 'web-1']);
    const [attempt] = named(await spansOf(tracer, traceId, 2), 'action Find');
    await app.close();
    await tracer.shutdown();
    expect(k8s.traceparents.at(-1)).toBe(traceparentOf(traceId, attempt!.spanId));
    expect(docker.traceparents.at(-1)).toBe(traceparentOf(traceId, attempt!.spanId));
  });

  it('the on_error handler\'s run is a child of the failed run', async () => {
    const tracer = startTracing({ serviceName: 'shop', node: `e-${mode}`, url: receiver.url, scheduleDelayMs: 50 });
    const app = buildApp([await planOf('prop.yaml', mode, CONFIG)], { env, services: { clock: systemClock, tracer }, warn: () => {} });
    const traceId = hex(32);
    const res = await app.inject({ url: '/broken', headers: { traceparent: traceparentOf(traceId, hex(16)) } });
    expect(res.statusCode).toBeGreaterThanOrEqual(500);
    const spans = await spansOf(tracer, traceId, 3);
    await app.close();
    await tracer.shutdown();
    const failed = named(spans, 'run prop.broken')[0]!;
    expect(named(spans, 'run prop.alert')[0]!.parentSpanId).toBe(failed.spanId);
  });

  it('a callback resume continues the run\'s trace and links the resume request\'s context; a re-run is parented by the admin request', async () => {
    const tracer = startTracing({ serviceName: 'shop', node: `c-${mode}`, url: receiver.url, scheduleDelayMs: 50 });
    const services: Services = { clock: systemClock, store, tracer };
    const app = buildApp([await planOf('prop.yaml', mode, CONFIG)], { env, services, node: `c-${mode}`, adminToken: ADMIN, warn: () => {} });
    const traceId = hex(32), callerTrace = hex(32), callerSpan = hex(16);
    const res = await app.inject({ method: 'POST', url: '/approve', payload: {}, headers: { traceparent: traceparentOf(traceId, hex(16)) } });
    expect(res.statusCode).toBe(202);
    const id = res.headers['x-run-id'] as string;
    const token = await store.waitingToken(id);
    const resumed = await app.inject({ method: 'POST', url: `/_ap/resume/${token}`, payload: { by: 'ann' }, headers: { traceparent: traceparentOf(callerTrace, callerSpan) } });
    expect(resumed.statusCode).toBe(202);
    await until(async () => ((await store.loadRun(id))?.status === 'succeeded' ? true : undefined));
    const spans = named(await spansOf(tracer, traceId, 5), 'run prop.approve');
    const first = spans.find((s) => !plain(s.attributes)['pipewright.resumed_by'])!;
    const second = spans.find((s) => plain(s.attributes)['pipewright.resumed_by'] === 'callback')!;
    expect(second.parentSpanId).toBe(first.spanId);
    expect(second.links?.map((l) => [l.traceId, l.spanId])).toEqual([[callerTrace, callerSpan]]);
    // A re-run: a new run in the admin request's trace, not the recorded request's.
    const adminTrace = hex(32), adminSpan = hex(16);
    const rerun = await app.inject({ method: 'POST', url: `/_ap/runs/${id}/rerun`, headers: { authorization: `Bearer ${ADMIN}`, traceparent: traceparentOf(adminTrace, adminSpan) } });
    expect(rerun.statusCode).toBe(200);
    const again = named(await spansOf(tracer, adminTrace, 1), 'run prop.approve')[0]!;
    expect(again.parentSpanId).toBe(adminSpan);
    expect(plain(again.attributes)['pipewright.run_id']).toBe(rerun.json().run_id);
    await app.close();
    await tracer.shutdown();
  });

  it('a scheduled run starts a trace of its own', async () => {
    const tracer = startTracing({ serviceName: 'shop', node: `s-${mode}`, url: receiver.url, scheduleDelayMs: 50 });
    const plan = await planOf('sched.yaml', mode, `
interfaces:
  tick:
    schedule: { cron: "* * * * *", enabled: true }
    actions: [{ name: Call, url: a|var::API|/tick-${mode}, output: http }]
`);
    plan.interfaces[0]!.schedule = { cron: '* * * * * *', enabled: true };
    const results: RunResult[] = [];
    const s = startSchedules([plan], { store: new MemoryStore(), env, services: { clock: systemClock, tracer }, node: 'n1', seconds: true, log: () => {}, afterRun: (_p, _i, r) => { results.push(r); } });
    await until(() => (results.length ? true : undefined));
    await s.stop();
    const traceId = results[0]!.state.trace!.traceparent.split('-')[1]!;
    const spans = await spansOf(tracer, traceId, 2);
    await tracer.shutdown();
    const run = named(spans, 'run sched.tick')[0]!;
    expect(run.parentSpanId ?? '').toBe('');
    expect(plain(run.attributes)['pipewright.trigger']).toBe('schedule');
    expect(up.hits.find((h) => h.path === `/tick-${mode}`)?.headers.traceparent).toBe(traceparentOf(traceId, named(spans, 'action Call')[0]!.spanId));
  });
});
