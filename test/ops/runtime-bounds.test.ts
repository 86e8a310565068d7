// Issue 9 (7) over HTTP, both paths: a catastrophic param regex answers at once, a timer-overflowing
// timeout is refused rather than failing every call, retries stop at the run's deadline, and a
// client that goes away cancels its run.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { planOf, testEnv } from '../support/plans.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { capturedLog, serveWith, until } from './helpers.ts';

const MODES = ['compiled', 'interpreted'] as const;
const closers: Array<() => Promise<unknown>> = [];
afterAll(async () => { for (const c of closers) await c(); await closeHttpPools(); });

const CONFIG = `
interfaces:
  p:
    route: /p
    params:
      id: { error_message: "id must be letters a", validate: { regex: "^(a+)+$" } }
    actions: [{ name: A, input: a|params::id|, output: http }]
  slow_timer:
    actions:
      - name: Up
        url: a|var::API|/never
        http: { timeout: a|var::LONG| }
    show_error_detail: true
  flaky:
    actions:
      - name: Up
        url: a|var::API|/flaky
        retry: { attempts: 100, delay: 1s, jitter: none }
    show_error_detail: true
  two_steps:
    actions:
      - name: Slow
        url: a|var::API|/slow
      - name: After
        url: a|var::API|/after
`;

describe.each(MODES)('%s', (mode) => {
  it('a param regex that backtracks catastrophically on a backtracking engine answers 400 at once', async () => {
    const { app, url } = await serveWith([await planOf('bounds.yaml', mode, CONFIG)], testEnv());
    closers.push(() => app.close());
    const res = await fetch(`${url}/p?id=${'a'.repeat(5_000)}!`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { status: 400, message: 'id must be letters a' } });
    expect((await fetch(`${url}/p?id=aaa`)).status).toBe(200);
  });

  it('an HTTP timeout past the timer limit is refused with its bound, the upstream never called', async () => {
    const up = await countingUpstream({ '/never': (_q, r) => json(r, 200, {}) });
    closers.push(() => up.close());
    const { app, url } = await serveWith([await planOf('bounds.yaml', mode, CONFIG)], testEnv({ API: up.url, LONG: '30d' }));
    closers.push(() => app.close());
    const res = await fetch(`${url}/slow_timer`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: { status: 500, message: 'action "Up" failed', action: 'Up', detail: 'timeout "30d" is longer than the limit of 1d' } });
    expect(up.count('/never')).toBe(0);
  });

  it('retries stop at the run deadline instead of hammering the upstream', async () => {
    const up = await countingUpstream({ '/flaky': (_q, r) => json(r, 503, { busy: true }) });
    closers.push(() => up.close());
    const { app, url } = await serveWith([await planOf('bounds.yaml', mode, CONFIG)], testEnv({ API: up.url }), { runDeadlineMs: 500 });
    closers.push(() => app.close());
    const res = await fetch(`${url}/flaky`);
    expect(res.status).toBe(502);
    const body = (await res.json()) as { error: { detail: string } };
    expect(body.error.detail).toMatch(/; retries stopped: the run's deadline \(\d{4}-\d\d-\d\dT[\d:.]+Z\) comes before the next attempt$/);
    expect(up.count('/flaky')).toBe(1);
  });

  it('a client that disconnects cancels its run: the action in flight is aborted, the next never starts', async () => {
    let upstreamSawClose = false;
    const up = await countingUpstream({
      '/slow': (req: IncomingMessage, _res: ServerResponse) => new Promise<void>((done) => { req.socket.once('close', () => { upstreamSawClose = true; done(); }); }),
      '/after': (_q, r) => json(r, 200, {}),
    });
    closers.push(() => up.close());
    const env = testEnv({ API: up.url });
    const { log, lines } = capturedLog(env);
    const { app, url } = await serveWith([await planOf('bounds.yaml', mode, CONFIG)], env, { log });
    closers.push(() => app.close());
    const client = new AbortController();
    const pending = fetch(`${url}/two_steps`, { signal: client.signal }).catch((e: unknown) => e);
    await until(() => (up.count('/slow') === 1 ? true : undefined));
    client.abort();
    await pending;
    await until(() => (upstreamSawClose ? true : undefined));
    expect(await until(() => lines.find((l) => l.msg === 'request aborted by the client'))).toMatchObject({ interface: 'two_steps', status: 499 });
    // Logged once the executor refused to start the next action.
    await until(() => lines.find((l) => l.msg === 'run cancelled: the client disconnected'));
    expect(up.count('/after')).toBe(0);
    // The abort's line is the request's only one: the error path writes none for a 499.
    await new Promise((r) => setTimeout(r, 50));
    expect(lines.filter((l) => l.msg === 'request')).toEqual([]);
  });
});
