// The error handler: runs after a failed run's response, with the documented body, is not awaited,
// is rate limited per config, and its own failure never reaches the caller.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import type { ErrorHandlers } from '../../runtime/exec/on-error.ts';
import { planOf, serveOn, testEnv } from '../support/plans.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';

type Up = Awaited<ReturnType<typeof countingUpstream>>;
let up: Up;
beforeAll(async () => {
  up = await countingUpstream({ '/fail': (_q, res) => json(res, 503, { down: true }), '/record': (_q, res) => json(res, 200, {}), '/broken': (_q, res) => json(res, 500, {}) });
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
`;

describe('on_error', () => {
  it.each(['compiled', 'interpreted'] as const)('runs the handler for failures, at most max_per_minute (%s)', async (mode) => {
    const before = up.count('/record');
    const { app, url } = await serveOn([await planOf('handled.yaml', mode, cfg('/record'))], testEnv({ API: up.url }));
    for (let n = 0; n < 3; n++) expect((await fetch(`${url}/work`)).status).toBe(502);
    expect((await fetch(`${url}/fine`)).status).toBe(200);
    const handlers = (app as unknown as { errorHandlers: ErrorHandlers }).errorHandlers;
    await Promise.all(handlers.running);
    expect(up.count('/record') - before).toBe(2);
    expect(handlers.skipped).toBe(1);
    const sent = JSON.parse(up.hits.filter((h) => h.path === '/record').at(-1)!.body);
    expect(sent).toMatchObject({ what: 'work', code: 502, config: 'handled', data: { error: { status: 502, action: 'Call' } } });
    expect(sent.run).toMatch(/^00000000-0000-4000-8000-/);
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
