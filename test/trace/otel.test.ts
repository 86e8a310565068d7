// OpenTelemetry traces (issue 31) against an in-process OTLP/HTTP receiver that decodes what the
// official exporter sends (OTLP JSON): a run with a retried action is one span with an attempt span
// per attempt and the retry wait as an event, under the inbound W3C traceparent, and each outbound
// call carries its attempt's context; an MQTT v5 traceparent user property and a WebSocket upgrade's
// header parent the runs they start; a run suspended on one node and resumed by another's resumer
// continues the same trace; a standalone bundle loads the tracer from the file beside it (compile
// --tracing) and one compiled without it refuses to start traced. Both execution paths.
import type { AddressInfo } from 'node:net';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { NO_TRACER } from '../../compiler/bundle/slim.ts';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../runtime/server/app.ts';
import { startResumer } from '../../runtime/durable/resumer.ts';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { PostgresStore } from '../../runtime/store/postgres.ts';
import { systemClock, type Services } from '../../runtime/services.ts';
import { startTracing } from '../../runtime/trace/otel.ts';
import { tracingWanted, serviceName } from '../../runtime/trace/settings.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { planOf, testEnv } from '../support/plans.ts';
import { DATABASE_URL, dropSchema, schemaName, until } from '../durable/helpers.ts';
import { serveBundle } from '../support/bundle.ts';
import mqtt from 'mqtt';
import { startMqtt } from '../../runtime/mqtt/index.ts';
import { open } from '../realtime/helpers.ts';
import { hex, otlpReceiver, plain } from '../support/otlp-receiver.ts';

const MOSQUITTO = process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';

const CONFIG = `
interfaces:
  order:
    actions:
      - name: Fetch
        url: a|var::API|/flaky/a|params::k|
        retry: { attempts: 3, delay: 20, jitter: none }
        output: http
  sock:
    ws: true
    public: true
    actions: [{ name: Echo, input: a|body|, output: http }]
  ingest:
    mqtt: orders
    actions: [{ name: Take, input: a|body|, output: http }]
  later:
    actions:
      - name: Nap
        delay: 300ms
      - name: Done
        url: a|var::API|/done
        output: http
`;

type Up = Awaited<ReturnType<typeof countingUpstream>>;
let up: Up;
let receiver: Awaited<ReturnType<typeof otlpReceiver>>;
let store: PostgresStore;
const schema = schemaName('traces');
beforeAll(async () => {
  up = await countingUpstream({
    '/flaky/*': (_q, res, n) => json(res, n === 1 ? 503 : 200, { n }),
    '/done': (_q, res) => json(res, 200, { done: true }),
  });
  receiver = await otlpReceiver();
  store = new PostgresStore({ url: DATABASE_URL, schema });
  await store.init();
});
afterAll(async () => { await store.close(); await dropSchema(schema); await receiver.close(); await up.close(); await closeHttpPools(); });

describe('tracing settings', () => {
  it('is on only with an OTLP endpoint, and not when the SDK or the traces exporter is switched off', () => {
    expect(tracingWanted({})).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' })).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
    expect(serviceName({})).toBe('pipewright');
    expect(serviceName({ OTEL_SERVICE_NAME: 'shop' })).toBe('shop');
  });
});

describe.each(['compiled', 'interpreted'] as const)('traces (%s)', (mode) => {
  const env = { ...testEnv({}), uuid: () => randomUUID() };
  const vars: Record<string, string> = {};
  Object.assign(env, { variable: (k: string) => vars[k] });

  it('a run with a retried action: the run\'s span under the inbound traceparent, an attempt span each, the retry wait an event, the context sent upstream', async () => {
    vars.API = up.url;
    const tracer = startTracing({ serviceName: 'shop', node: `a-${mode}`, url: receiver.url, scheduleDelayMs: 50 });
    const app = buildApp([await planOf('traces.yaml', mode, CONFIG)], { env, services: { clock: systemClock, tracer }, warn: () => {} });
    const traceId = hex(32), inbound = hex(16);
    const res = await app.inject({ url: `/order?k=${mode}`, headers: { traceparent: `00-${traceId}-${inbound}-01`, tracestate: 'vendor=x' } });
    expect(res.statusCode).toBe(200);
    await tracer.flush();
    const mine = await until(() => { const s = receiver.spans.filter((x) => x.traceId === traceId); return s.length >= 3 ? s : undefined; });
    await app.close();
    await tracer.shutdown();
    expect(receiver.paths[0]).toMatch(/^POST \/v1\/traces application\/json/);
    const run = mine.find((s) => s.name === 'run traces.order')!;
    expect(run.parentSpanId).toBe(inbound);
    expect(run.kind).toBe(2); // SERVER
    expect(plain(run.attributes)).toEqual({
      'pipewright.run_id': res.headers['x-run-id'], 'pipewright.config': 'traces', 'pipewright.interface': 'order', 'pipewright.trigger': 'http',
      'pipewright.status': 'succeeded', 'http.response.status_code': 200,
    });
    expect(run.resource).toMatchObject({ 'service.name': 'shop', 'service.instance.id': `a-${mode}` });
    expect(run.events!.map((e) => ({ name: e.name, ...plain(e.attributes) }))).toEqual([
      { name: 'retry wait', 'pipewright.action': 'Fetch', 'pipewright.attempt': 1, 'pipewright.next_attempt': 2, 'pipewright.wait_ms': 20 },
    ]);
    const attempts = mine.filter((s) => s.name === 'action Fetch').sort((a, b) => plain(a.attributes)['pipewright.attempt'] as number - (plain(b.attributes)['pipewright.attempt'] as number));
    expect(attempts.map((s) => ({ parent: s.parentSpanId, kind: s.kind, error: s.status?.code === 2, ...plain(s.attributes) }))).toEqual([
      { parent: run.spanId, kind: 3, error: true, 'pipewright.run_id': res.headers['x-run-id'], 'pipewright.action': 'Fetch', 'pipewright.action.kind': 'http', 'pipewright.attempt': 1, 'pipewright.outcome': 'failed', 'http.response.status_code': 503 },
      { parent: run.spanId, kind: 3, error: false, 'pipewright.run_id': res.headers['x-run-id'], 'pipewright.action': 'Fetch', 'pipewright.action.kind': 'http', 'pipewright.attempt': 2, 'pipewright.outcome': 'succeeded', 'http.response.status_code': 200 },
    ]);
    expect(mine).toHaveLength(3);
    // Each call upstream carried its attempt's context (and the inbound tracestate).
    const calls = up.hits.filter((h) => h.path === `/flaky/${mode}`);
    expect(calls.map((h) => [h.headers.traceparent, h.headers.tracestate])).toEqual(attempts.map((s) => [`00-${traceId}-${s.spanId}-01`, 'vendor=x']));
  });

  it('an MQTT v5 message\'s traceparent user property is its run\'s parent', async () => {
    const tracer = startTracing({ serviceName: 'shop', node: `m-${mode}`, url: receiver.url, scheduleDelayMs: 50 });
    const services: Services = { clock: systemClock, tracer };
    const plan = await planOf('traces.yaml', mode, CONFIG);
    const app = buildApp([plan], { env, services, warn: () => {} });
    // The machine's Mosquitto (MQTT v5; the embedded broker speaks 3.1.1), under a topic prefix of this test's own.
    const environment = `trace${process.pid}${mode}`;
    const mq = (await startMqtt(app, [plan], { environment, env, services, node: `m-${mode}`, host: '127.0.0.1', url: MOSQUITTO, warn: () => {} }))!;
    const traceId = hex(32), parent = hex(16);
    const pub = await mqtt.connectAsync(MOSQUITTO, { protocolVersion: 5 });
    try {
      await pub.publishAsync(`${environment}/ingest/orders`, '{"id":1}', { qos: 1, properties: { userProperties: { traceparent: `00-${traceId}-${parent}-01` } } });
      await tracer.flush();
      const run = await until(async () => { await tracer.flush(); return receiver.spans.find((s) => s.traceId === traceId && s.name === 'run traces.ingest'); });
      expect(run.parentSpanId).toBe(parent);
      expect(plain(run.attributes)).toMatchObject({ 'pipewright.trigger': 'mqtt', 'pipewright.status': 'succeeded' });
    } finally { await pub.endAsync(); await mq.close(); await app.close(); await tracer.shutdown(); }
  });

  it('a WebSocket upgrade\'s traceparent is the parent of its frames\' runs', async () => {
    const tracer = startTracing({ serviceName: 'shop', node: `w-${mode}`, url: receiver.url, scheduleDelayMs: 50 });
    const app = buildApp([await planOf('traces.yaml', mode, CONFIG)], { env, services: { clock: systemClock, tracer }, warn: () => {} });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const traceId = hex(32), parent = hex(16);
    const c = await open(`ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/ws/local/dev/sock`, { traceparent: `00-${traceId}-${parent}-01` });
    try {
      c.ws.send(JSON.stringify({ a: 1 }));
      expect(await c.next()).toMatchObject({ type: 'ap_result', status: 200 });
      const run = await until(async () => { await tracer.flush(); return receiver.spans.find((s) => s.traceId === traceId && s.name === 'run traces.sock'); });
      expect(run.parentSpanId).toBe(parent);
      expect(plain(run.attributes)).toMatchObject({ 'pipewright.trigger': 'ws', 'pipewright.status': 'succeeded' });
    } finally { c.ws.terminate(); await app.close(); await tracer.shutdown(); }
  });

  it('a run suspended on one node and resumed by another\'s resumer continues the same trace', async () => {
    vars.API = up.url;
    const node = (name: string) => ({ clock: systemClock, store, maxDelayMs: 100, tracer: startTracing({ serviceName: 'shop', node: name, url: receiver.url, scheduleDelayMs: 50 }) }) satisfies Services;
    const a = node(`a-${mode}`), b = node(`b-${mode}`);
    const plan = await planOf('traces.yaml', mode, CONFIG);
    const app = buildApp([plan], { env, services: a, node: `a-${mode}`, warn: () => {} });
    const traceId = hex(32);
    const res = await app.inject({ url: '/later', headers: { traceparent: `00-${traceId}-${hex(16)}-01` } });
    expect(res.statusCode).toBe(202);
    const resumer = startResumer({ plans: [plan], store, env, services: b, node: `b-${mode}`, pollMs: 50 });
    try {
      await until(async () => ((await store.loadRun(res.headers['x-run-id'] as string))?.status === 'succeeded' ? true : undefined));
    } finally { await resumer.stop(); await app.close(); }
    await a.tracer.flush();
    await b.tracer.flush();
    const mine = await until(() => { const s = receiver.spans.filter((x) => x.traceId === traceId); return s.length >= 4 ? s : undefined; });
    await a.tracer.shutdown();
    await b.tracer.shutdown();
    const [first, second] = mine.filter((s) => s.name === 'run traces.later').sort((x) => (plain(x.attributes)['pipewright.resumed_by'] ? 1 : -1));
    expect(first!.resource['service.instance.id']).toBe(`a-${mode}`);
    expect(plain(first!.attributes)).toMatchObject({ 'pipewright.status': 'suspended', 'http.response.status_code': 202 });
    expect(first!.events!.map((e) => ({ name: e.name, ...plain(e.attributes) }))).toEqual([{ name: 'suspended', 'pipewright.wake.reason': 'delay', 'pipewright.action': 'Nap', 'pipewright.wake.at': expect.any(String) }]);
    // Node b's segment: a child of node a's run span, in the same trace.
    expect(second!.resource['service.instance.id']).toBe(`b-${mode}`);
    expect(second!.parentSpanId).toBe(first!.spanId);
    expect(plain(second!.attributes)).toMatchObject({ 'pipewright.resumed_by': 'wake', 'pipewright.status': 'succeeded', 'http.response.status_code': 200 });
    const done = mine.find((s) => s.name === 'action Done')!;
    expect(done.parentSpanId).toBe(second!.spanId);
    expect(up.hits.find((h) => h.headers.traceparent === `00-${traceId}-${done.spanId}-01`)?.path).toBe('/done');
  });
});

describe('a standalone bundle', () => {
  const stops: Array<() => unknown> = [];
  afterAll(() => { for (const s of stops) s(); });

  it('loads the tracer from the file beside it when OTEL_EXPORTER_OTLP_ENDPOINT is set, and exports to <endpoint>/v1/traces', async () => {
    const url = await serveBundle('bundled.yaml', CONFIG, {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url.replace('/v1/traces', ''), OTEL_SERVICE_NAME: 'bundled', OTEL_BSP_SCHEDULE_DELAY: '50', SERVICE__VAR__API: up.url, SERVICE__MQTT_PORT: '0',
    }, stops, undefined, { tracing: true });
    const traceId = hex(32);
    expect((await fetch(`${url}/order?k=bundle`, { headers: { traceparent: `00-${traceId}-${hex(16)}-01` } })).status).toBe(200);
    const mine = await until(() => { const s = receiver.spans.filter((x) => x.traceId === traceId); return s.length >= 3 ? s : undefined; });
    expect(mine.map((s) => s.name).sort()).toEqual(['action Fetch', 'action Fetch', 'run bundled.order']);
    expect(mine[0]!.resource['service.name']).toBe('bundled');
  }, 120_000);

  it('`compile --tracing` writes the tracer beside server.mjs; without it none is written (an earlier one is removed), and such a server started with OTEL_EXPORTER_OTLP_ENDPOINT refuses to start, saying to compile with --tracing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-tracing-'));
    const file = join(dir, 'plain.yaml');
    writeFileSync(file, 'interfaces:\n  hi:\n    actions: [{ name: Say, input: { hi: 1 }, output: http }]\n');
    const compile = (...args: string[]) => spawnSync(process.execPath, [resolve('bin/pipewright.mjs'), 'compile', file, '--out', join(dir, 'out'), ...args], { encoding: 'utf8' });
    const server = join(dir, 'out', 'plain', 'server.mjs');
    const tracer = join(dir, 'out', 'plain', 'pipewright-tracing.cjs');
    expect(compile('--tracing').status).toBe(0);
    expect(statSync(tracer).size).toBeGreaterThan(100_000);
    expect(compile().status).toBe(0);
    expect(existsSync(tracer)).toBe(false);
    expect(compile('--tracing', '--no-bundle')).toMatchObject({ status: 2, stderr: expect.stringContaining('--tracing writes the tracer beside server.mjs: it cannot go with --no-bundle') });
    const started = spawnSync(process.execPath, [server, '--port', '0'], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' } });
    expect(started.status).toBe(1);
    expect(started.stderr).toBe(`pipewright: ${NO_TRACER}\n`);
    expect(NO_TRACER).toContain('compile it again with `pipewright compile --tracing`');
  }, 180_000);
});
