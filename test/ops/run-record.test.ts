// GET /_ap/runs/<id> of runs that finished over HTTP (memory store): the record is written out at
// finish and redacted when read, so the outcome shows the body the client got, secrets redacted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { MemoryStore } from '../../runtime/store/memory.ts';
import { planOf } from '../support/plans.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { secretEnv, serveWith } from './helpers.ts';

const SECRET = 'r3cord-s3cret-value';
const CONFIG = `
interfaces:
  object:
    actions:
      - name: Up
        url: a|var::API|/doc
        output: http
`;

let up: Awaited<ReturnType<typeof countingUpstream>>;
const closers: Array<() => Promise<unknown>> = [];
beforeAll(async () => { up = await countingUpstream({ '/doc': (_q, res) => json(res, 200, { n: 1.5, echoed: SECRET }) }); });
afterAll(async () => { for (const c of closers) await c(); await up.close(); await closeHttpPools(); });

describe.each(['compiled', 'interpreted'] as const)('%s', (mode) => {
  it('a finished run reads back with its outcome body, redacted', async () => {
    const env = secretEnv({ API: up.url }, { TOKEN: SECRET });
    const { app, url } = await serveWith([await planOf('records.yaml', mode, CONFIG)], env, { store: new MemoryStore() });
    closers.push(() => app.close());
    const res = await fetch(`${url}/object`);
    expect(res.status).toBe(200);
    const run = await (await fetch(`${url}/_ap/runs/${res.headers.get('x-run-id')}`)).text();
    expect(run).not.toContain(SECRET);
    expect(JSON.parse(run)).toEqual({
      id: res.headers.get('x-run-id'), config: 'records', interface: 'object', status: 'succeeded', started_at: expect.any(String), current_action: null,
      outcome: { http_code: 200, body: { n: 1.5, echoed: '[redacted]' } },
    });
  });
});
