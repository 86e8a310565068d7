// Issue 9 (5), both paths: one line per request, one per failed action, the config's own messages
// (pre/post/error/success/retry_log, interface log) interpolated and redacted, stacks for 5xx.
import { afterAll, describe, expect, it } from 'vitest';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { logSettings } from '../../runtime/server/log-settings.ts';
import { buildApp } from '../../runtime/server/app.ts';
import { systemClock } from '../../runtime/services.ts';
import { executeInterface } from '../../runtime/exec/run.ts';
import { MemoryStore } from '../../runtime/store/memory.ts';
import { planOf, postRequest } from '../support/plans.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { capturedLog, secretEnv, serveWith, until, type LogLine } from './helpers.ts';
import { createLogger } from '../../runtime/log/logger.ts';
import { redactorOf } from '../../runtime/values/redact.ts';

const CONFIG = `
interfaces:
  hello:
    route: /hello/:id
    log:
      level: debug
      fields: { who: a|params::id| }
    actions:
      - name: Greet
        input: { hi: a|params::id| }
        pre_log: [{ msg: "greeting a|params::id| with a|secret::KEY|", level: info }]
        success_log: [{ msg: "a|Greet|", level: warn, json: true }]
        post_log: [{ msg: "done a|Greet->hi|", level: debug }]
        output: http
  flaky:
    actions:
      - name: Up
        url: a|var::API|/flaky
        retry: { attempts: 2, delay: 0 }
        retry_log: [{ msg: "retrying after a|Up::status|", level: info }]
        error_log: [{ msg: "gave up on a|var::API|", level: error }]
        post_log: [{ msg: "never: the action failed", level: error }]
  quiet:
    log: { enabled: false }
    actions: [{ name: A, input: "x", output: http }]
`;

const closers: Array<() => Promise<unknown>> = [];
afterAll(async () => { for (const c of closers) await c(); await closeHttpPools(); });

const strip = ({ time, duration_ms, req_id, run_id, ...rest }: LogLine) => {
  expect(typeof time).toBe('string');
  return rest;
};

describe.each(['compiled', 'interpreted'] as const)('%s', (mode) => {
  it('writes the request line, the config messages and failed actions as JSON lines', async () => {
    const up = await countingUpstream({ '/flaky': (_q, r) => json(r, 503, {}) });
    closers.push(() => up.close());
    const env = secretEnv({ API: up.url }, { KEY: 'k3y-v4lue' });
    const { log, lines } = capturedLog(env);
    const { app, url } = await serveWith([await planOf('logs.yaml', mode, CONFIG)], env, { log });
    closers.push(() => app.close());

    const ok = await fetch(`${url}/hello/ada`);
    expect(ok.status).toBe(200);
    const runId = ok.headers.get('x-run-id');
    await until(() => lines.find((l) => l.msg === 'request'));
    const failed = await fetch(`${url}/flaky`);
    expect(failed.status).toBe(502);
    expect(failed.headers.get('x-run-id')).toMatch(/^[0-9a-f-]{36}$/);
    await until(() => (lines.filter((l) => l.msg === 'request').length === 2 ? true : undefined));
    expect((await fetch(`${url}/quiet`)).status).toBe(200);
    const notFound = await fetch(`${url}/nowhere`);
    expect(notFound.headers.get('x-run-id')).toMatch(/^[0-9a-f-]{36}$/);
    await until(() => (lines.filter((l) => l.msg === 'request').length === 3 ? true : undefined));

    const hello = lines.filter((l) => l.run_id === runId);
    expect(hello.map(strip)).toEqual([
      { level: 30, config: 'logs', interface: 'hello', action: 'Greet', log: 'pre_log', msg: 'greeting ada with [redacted]' },
      { level: 40, config: 'logs', interface: 'hello', action: 'Greet', log: 'success_log', data: { hi: 'ada' }, msg: 'success_log' },
      { level: 20, config: 'logs', interface: 'hello', action: 'Greet', log: 'post_log', msg: 'done ada' },
      { level: 20, config: 'logs', interface: 'hello', trigger: 'http', run_status: 'succeeded', method: 'GET', path: '/hello/ada', status: 200, fields: { who: 'ada' }, msg: 'request' },
    ]);
    const flaky = lines.filter((l) => l.interface === 'flaky');
    expect(flaky.map(strip)).toEqual([
      { level: 30, config: 'logs', interface: 'flaky', action: 'Up', log: 'retry_log', attempt: 1, next_attempt: 2, wait_ms: 0, msg: 'retrying after 503' },
      { level: 40, config: 'logs', interface: 'flaky', action: 'Up', attempt: 2, reason: `HTTP 503 from GET ${up.url}/flaky (expected 2xx or 304)`, msg: 'action "Up" failed' },
      { level: 50, config: 'logs', interface: 'flaky', action: 'Up', log: 'error_log', msg: `gave up on ${up.url}` },
      { level: 50, config: 'logs', interface: 'flaky', trigger: 'http', run_status: 'failed', method: 'GET', path: '/flaky', status: 502, msg: 'request' },
    ]);
    expect(lines.some((l) => l.interface === 'quiet')).toBe(false);
    expect(lines.find((l) => l.path === '/nowhere')).toMatchObject({ status: 404, msg: 'request' });
    const line = lines.find((l) => l.msg === 'request' && l.interface === 'hello')!;
    expect(line.req_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // An HTTP run is named by its request's id: one id per request, in the header and the line.
    expect(line.run_id).toBe(line.req_id);
    expect(line.run_id).toBe(runId);
    expect(typeof line.duration_ms).toBe('number');
  });
});

describe('an action skipped for having nothing new', () => {
  it.each(['compiled', 'interpreted'] as const)('writes none of its logs: post_log is "after success" (%s)', async (mode) => {
    const plan = await planOf('skip-logs.yaml', mode, `
interfaces:
  x:
    actions:
      - name: Fresh
        input: a|body::events|
        only_new: { key: log-events, id: .id }
        success_log: [{ msg: "new events", level: info }]
        error_log: [{ msg: "failed", level: error }]
        post_log: [{ msg: "checked", level: info }]
`);
    const env = secretEnv({}, {});
    const { log, lines } = capturedLog(env);
    const services = { clock: systemClock, store: new MemoryStore(), log };
    const run = () => executeInterface(plan, plan.interfaces[0]!, postRequest('/x', { events: [{ id: 1 }] }), { trigger: 'test', env, services });
    await run();
    expect(lines.map((l) => l.msg)).toEqual(['new events', 'checked']);
    const again = await run();
    expect(again.state.steps.Fresh).toMatchObject({ outcome: 'skipped', skippedEmpty: true });
    expect(lines.map((l) => l.msg)).toEqual(['new events', 'checked']);
  });
});

describe('server errors and settings', () => {
  it('logs a 5xx with its stack while the client gets "internal error" and a run id', async () => {
    const env = secretEnv({}, { KEY: 'k3y-v4lue' });
    const { log, lines } = capturedLog(env);
    // A handler bug, as a route of the same app would have one.
    const app2 = buildApp([], { env, services: { clock: systemClock, log } });
    app2.get('/bug', async () => { throw new Error('bug with k3y-v4lue inside'); });
    await app2.listen({ port: 0, host: '127.0.0.1' });
    closers.push(() => app2.close());
    const port = (app2.server.address() as { port: number }).port;
    const res = await fetch(`http://127.0.0.1:${port}/bug`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: { status: 500, message: 'internal error' } });
    const err = await until(() => lines.find((l) => l.level === 50 && l.err));
    expect(err.msg).toBe('bug with [redacted] inside');
    expect((err.err as { stack: string }).stack).toMatch(/^Error: bug with \[redacted\] inside\n\s+at /);
    expect(err.run_id).toBe(res.headers.get('x-run-id'));
  });

  it('answers an error after an interface run as a handler bug: 500, the run id, the stack and the request line', async () => {
    const plan = await planOf('after-run-bug.yaml', 'compiled', `
interfaces:
  bug:
    actions: [{ name: A, input: "x", output: http }]
`);
    const env = secretEnv({}, { KEY: 'k3y-v4lue' });
    const { log, lines } = capturedLog(env);
    // The run succeeds; what follows it on the request path throws (an after-run hook, here).
    const app2 = buildApp([plan], {
      env, services: { clock: systemClock, log },
      hooks: { errorHandlers: undefined as never, afterRun() { throw new Error('hook bug with k3y-v4lue'); } },
    });
    await app2.listen({ port: 0, host: '127.0.0.1' });
    closers.push(() => app2.close());
    const port = (app2.server.address() as { port: number }).port;
    const res = await fetch(`http://127.0.0.1:${port}/bug`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: { status: 500, message: 'internal error' } });
    const runId = res.headers.get('x-run-id');
    expect(runId).toMatch(/^[0-9a-f-]{36}$/);
    const err = await until(() => lines.find((l) => l.level === 50 && l.err));
    expect(err.msg).toBe('hook bug with [redacted]');
    expect(err.run_id).toBe(runId);
    const line = await until(() => lines.find((l) => l.msg === 'request'));
    expect(line).toMatchObject({ run_id: runId, config: plan.name, interface: 'bug', status: 500 });
  });

  it('reads SERVICE__LOG_LEVEL, SERVICE__LOG_PRETTY and SERVICE__LOG_LEVEL_LABELS, refusing an unknown level in one line', async () => {
    expect(logSettings({})).toEqual({ level: 'info', pretty: false });
    expect(logSettings({ SERVICE__LOG_LEVEL_LABELS: '1' })).toEqual({ level: 'info', pretty: false, labels: true });
    expect(logSettings({ SERVICE__LOG_LEVEL: 'DEBUG', SERVICE__LOG_PRETTY: '1' })).toEqual({ level: 'debug', pretty: true });
    // Levels: pino's numbers by default, words when asked (the request line's text path too).
    for (const labels of [false, true]) {
      const raw: string[] = [];
      const log = createLogger({ level: 'info', pretty: false, labels }, redactorOf(secretEnv({}, {})), { write: (l: string) => { raw.push(l); } });
      log.warn('w');
      const app = buildApp([], { env: secretEnv({}, {}), services: { clock: systemClock, log } });
      await app.inject({ url: '/nowhere' });
      await app.close();
      expect(raw.map((l) => (JSON.parse(l) as { level: unknown }).level)).toEqual(labels ? ['warn', 'info'] : [40, 30]);
    }
    expect(() => logSettings({ SERVICE__LOG_LEVEL: 'loud' })).toThrow('SERVICE__LOG_LEVEL=loud is not a log level: use one of trace, debug, info, warn, error, fatal, silent');
  });
});
