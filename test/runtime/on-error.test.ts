// The error handler: runs after a failed run's response, with the documented body, is not awaited,
// is rate limited per config, and its own failure never reaches the caller.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { ErrorHandlers } from '../../runtime/exec/on-error.ts';
import { executeInterface } from '../../runtime/exec/run.ts';
import { buildApp } from '../../runtime/server/app.ts';
import { systemClock } from '../../runtime/services.ts';
import { MemoryStore } from '../../runtime/store/memory.ts';
import { planOf, postRequest, serveOn, testEnv } from '../support/plans.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';

type Up = Awaited<ReturnType<typeof countingUpstream>>;
let up: Up;
beforeAll(async () => {
  up = await countingUpstream({ '/fail': (_q, res) => json(res, 503, { down: true }), '/record': (_q, res) => json(res, 200, {}), '/broken': (_q, res) => json(res, 500, {}), '/rules': (_q, res) => json(res, 200, {}), '/method': (q, res) => json(res, q.method === 'POST' ? 200 : 405, {}) });
});
afterAll(async () => { await up.close(); await closeHttpPools(); });

const cfg = (handlerUrl: string) => `
on_error:
  interface: notify
  max_per_minute: 2
interfaces:
  work:
    actions:
      - name: Call
        url: a|var::API|/fail
  fine:
    actions:
      - name: Ok
        input: ok
  notify:
    method: POST
    actions:
      - name: Record
        http:
          url: a|var::API|${handlerUrl}
          method: POST
          body:
            what: a|body->interface|
            code: a|body->http_code|
            run: a|body->run_uuid|
            config: a|body->config|
            data: a|body->data|
            type: a|header::content-type|
`;

describe('on_error', () => {
  it.each(['compiled', 'interpreted'] as const)('runs the handler for failures, at most max_per_minute (%s)', async (mode) => {
    const before = up.count('/record');
    const { app, url } = await serveOn([await planOf('handled.yaml', mode, cfg('/record'))], testEnv({ API: up.url }));
    for (let n = 0; n < 3; n++) expect((await fetch(`${url}/work`)).status).toBe(502);
    expect((await fetch(`${url}/fine`)).status).toBe(200);
    const handlers = (app as unknown as { errorHandlers: ErrorHandlers }).errorHandlers;
    await Promise.all(handlers.running);
    expect(handlers.running.size).toBe(0); // a finished handler leaves the set
    expect(up.count('/record') - before).toBe(2);
    expect(handlers.skipped).toBe(1);
    const sent = JSON.parse(up.hits.filter((h) => h.path === '/record').at(-1)!.body);
    expect(sent).toMatchObject({ what: 'work', code: 502, config: 'handled', data: { error: { status: 502, action: 'Call' } }, type: 'application/json' });
    expect(sent.run).toMatch(/^00000000-0000-4000-8000-/);
    await app.close();
  });

  it.each(['compiled', 'interpreted'] as const)('silence: true mutes the handler for that interface only (%s)', async (mode) => {
    const yaml = cfg('/record').replace('  work:\n', '  quiet:\n    silence: true\n    actions:\n      - name: Call\n        url: a|var::API|/fail\n  work:\n');
    const before = up.count('/record');
    const { app, url } = await serveOn([await planOf('silenced.yaml', mode, yaml)], testEnv({ API: up.url }));
    expect((await fetch(`${url}/quiet`)).status).toBe(502);
    const handlers = (app as unknown as { errorHandlers: ErrorHandlers }).errorHandlers;
    await Promise.all(handlers.running);
    expect(up.count('/record') - before).toBe(0);
    expect((await fetch(`${url}/work`)).status).toBe(502);
    await Promise.all(handlers.running);
    expect(up.count('/record') - before).toBe(1);
    await app.close();
  });

  it('a failing handler is dropped: the caller still gets its own response', async () => {
    const { app, url } = await serveOn([await planOf('broken.yaml', 'compiled', cfg('/broken'))], testEnv({ API: up.url }));
    const res = await fetch(`${url}/work`);
    expect(res.status).toBe(502);
    await Promise.all((app as unknown as { errorHandlers: ErrorHandlers }).errorHandlers.running);
    expect(up.count('/broken')).toBe(1);
    await app.close();
  });
});

describe('on_error: which failures start the handler, and the per-minute window', () => {
  const rules = (onError: string) => `
on_error:
  interface: notify
${onError}
interfaces:
  work:
    actions:
      - name: Call
        url: a|var::API|/fail
  w200:
    response: { http_code_on_error: 200 }
    actions:
      - name: Call
        url: a|var::API|/fail
  w300:
    response: { http_code_on_error: 300 }
    actions:
      - name: Call
        url: a|var::API|/fail
  w404:
    response: { http_code_on_error: 404 }
    actions:
      - name: Call
        url: a|var::API|/fail
  ok404:
    actions:
      - name: Fine
        input: fine
        response_on_success: { http_code: 404 }
  notify:
    method: POST
    assert:
      tests: [{ value: a|body->interface|, is_not_null: true }]
    actions:
      - name: Record
        http:
          url: a|var::API|/rules
          method: POST
          body: { what: a|body->interface|, at: a|body->at| }
`;
  const t0 = Date.parse('2026-03-01T10:00:00.000Z');

  async function serve(yaml: string, mode: 'compiled' | 'interpreted') {
    const clock = { t: t0, now: () => clock.t, sleep: async () => {} };
    const warnings: string[] = [];
    const app = buildApp([await planOf('rules.yaml', mode, yaml)], { env: testEnv({ API: up.url }), services: { clock }, warn: (m) => warnings.push(m) });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const handlers = (app as unknown as { errorHandlers: ErrorHandlers }).errorHandlers;
    const sent = () => up.hits.filter((h) => h.path === '/rules').map((h) => JSON.parse(h.body) as { what: string; at: string });
    /** One request; returns its status and run id once any handler it started has finished. */
    const call = async (path: string, at: number, init?: RequestInit) => {
      clock.t = at;
      const res = await fetch(url + path, init);
      await res.arrayBuffer();
      await Promise.all(handlers.running);
      return { status: res.status, run: res.headers.get('x-run-id') };
    };
    return { app, call, sent, warnings, handlers };
  }

  it.each(['compiled', 'interpreted'] as const)('a status list picks the statuses; by default any non-2xx; never for the handler itself or a run that did not fail (%s)', async (mode) => {
    const before = up.hits.filter((h) => h.path === '/rules').length;
    const listed = await serve(rules('  status: [502]'), mode);
    expect((await listed.call('/work', t0)).status).toBe(502);
    expect((await listed.call('/w404', t0)).status).toBe(404);
    expect(listed.sent().slice(before)).toEqual([{ what: 'work', at: '2026-03-01T10:00:00.000Z' }]);
    await listed.app.close();

    const dflt = await serve(rules(''), mode);
    expect((await dflt.call('/notify', t0, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })).status).toBe(422);
    expect((await dflt.call('/w200', t0)).status).toBe(200);
    // A run that did not fail starts no handler, whatever status it answers.
    expect((await dflt.call('/ok404', t0)).status).toBe(404);
    expect((await dflt.call('/w300', t0 + 1000)).status).toBe(300);
    // The direct call's own record (its body has no interface), then the handler for w300 only.
    expect(dflt.sent().slice(before + 1)).toEqual([{ what: null, at: null }, { what: 'w300', at: '2026-03-01T10:00:01.000Z' }]);
    expect(dflt.warnings).toEqual([]);
    await dflt.app.close();
  });

  it.each(['compiled', 'interpreted'] as const)('max_per_minute counts from the first handler of a window of one minute; 0 starts none (%s)', async (mode) => {
    const before = up.hits.filter((h) => h.path === '/rules').length;
    const one = await serve(rules('  max_per_minute: 1'), mode);
    await one.call('/work', t0);
    const skipped = await one.call('/work', t0 + 59_999);
    await one.call('/work', t0 + 60_000);
    expect(one.sent().slice(before).map((s) => s.at)).toEqual(['2026-03-01T10:00:00.000Z', '2026-03-01T10:01:00.000Z']);
    expect(one.handlers.skipped).toBe(1);
    expect(one.warnings).toEqual([`on_error: rate limit (1/min) reached for rules; handler skipped for run ${skipped.run}`]);
    await one.app.close();

    const none = await serve(rules('  max_per_minute: 0'), mode);
    await none.call('/work', t0);
    expect(none.sent().length).toBe(before + 2);
    expect(none.handlers.skipped).toBe(1);
    await none.app.close();
  });

  it.each(['compiled', 'interpreted'] as const)('the handler is called as a POST: a passthrough of the method forwards POST (%s)', async (mode) => {
    const before = up.hits.filter((h) => h.path === '/method').length;
    const yaml = cfg('/record').replace(/ {8}http:\n(.*\n)*/, `        http:
          url: a|var::API|/method
          method: PUT
          proxy_method: true
          proxy_body: true
`);
    const m = await serve(yaml, mode);
    expect((await m.call('/work', t0)).status).toBe(502);
    const hits = up.hits.filter((h) => h.path === '/method').slice(before);
    expect(hits.map((h) => JSON.parse(h.body) as unknown)).toEqual([expect.objectContaining({ interface: 'work', http_code: 502 })]);
    expect(m.warnings).toEqual([]); // an upstream answering 405 to anything but POST would fail the handler
    await m.app.close();
  });

  it('a handler that fails is reported to the operator with its status', async () => {
    const warnings: string[] = [];
    const app = buildApp([await planOf('broken.yaml', 'interpreted', cfg('/broken'))], { env: testEnv({ API: up.url }), warn: (m) => warnings.push(m) });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const res = await fetch(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}/work`);
    expect(res.status).toBe(502);
    await Promise.all((app as unknown as { errorHandlers: ErrorHandlers }).errorHandlers.running);
    expect(warnings).toEqual(['on_error: handler notify failed with 502']);
    await app.close();
  });

  it('a handler that cannot run at all (its state store is down) is reported, and the caller still gets its response', async () => {
    const store = new MemoryStore();
    store.stateGet = async () => { throw new Error('store down'); };
    const yaml = cfg('/record').replace('      - name: Record\n', '      - name: Record\n        input: a|state::last_failure|\n').replace(/        http:\n(.*\n)*/, '');
    const warnings: string[] = [];
    const app = buildApp([await planOf('down.yaml', 'compiled', yaml)], { env: testEnv({ API: up.url }), services: { clock: systemClock, store }, warn: (m) => warnings.push(m) });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const res = await fetch(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}/work`);
    expect(res.status).toBe(502);
    await Promise.all((app as unknown as { errorHandlers: ErrorHandlers }).errorHandlers.running);
    expect(warnings).toEqual(['on_error: handler notify crashed: store down']);
    await app.close();
  });

  it.each(['compiled', 'interpreted'] as const)('a config without on_error answers its failures as usual (%s)', async (mode) => {
    const { app, url } = await serveOn([await planOf('plain.yaml', mode, cfg('/record').replace(/^on_error:\n(  .*\n)*/m, ''))], testEnv({ API: up.url }));
    const res = await fetch(`${url}/work`);
    expect(res.status).toBe(502);
    expect((app as unknown as { errorHandlers: ErrorHandlers }).errorHandlers.running.size).toBe(0);
    await app.close();
  });

  it('a failed run answered below 200 (not over HTTP: a schedule, a tool call) starts the handler by default', async () => {
    const plan = await planOf('low.yaml', 'interpreted', rules('').replace('http_code_on_error: 300', 'http_code_on_error: 150'));
    const services = { clock: systemClock };
    const env = testEnv({ API: up.url });
    const r = await executeInterface(plan, plan.interfaces.find((i) => i.name === 'w300')!, postRequest('/w300'), { trigger: 'test', env, services });
    expect(r.response.status).toBe(150);
    const handlers = new ErrorHandlers(env, services, { warn: () => {} });
    handlers.afterRun(plan, { name: 'w300' }, r);
    expect(handlers.running.size).toBe(1);
    await Promise.all(handlers.running);
  });
});
