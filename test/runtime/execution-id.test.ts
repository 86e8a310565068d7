// An action execution's id (the default idempotency key): the same for every attempt of one
// execution, new for the next run, and made only when something reads it (most actions never do:
// one uuid per action was measurable per request).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { executeInterface } from '../../runtime/exec/run.ts';
import { systemClock } from '../../runtime/services.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { planOf, postRequest, testEnv } from '../support/plans.ts';

let up: Awaited<ReturnType<typeof countingUpstream>>;
beforeAll(async () => {
  up = await countingUpstream({
    '/twice/*': (_q, res, n) => json(res, n <= 2 ? 503 : 200, { n }), // fails the first two calls to each path
    '/plain': (_q, res, n) => json(res, 200, { n }),
  });
});
afterAll(async () => { await up.close(); await closeHttpPools(); });

const CONFIG = `
interfaces:
  keyed:
    actions:
      - name: Call
        url: a|var::API|/twice/a|body::k|
        http: { method: POST, idempotency: {} }
        retry: { attempts: 3, delay: 1, jitter: none }
        output: http
  plain:
    actions:
      - name: Call
        url: a|var::API|/plain
        retry: { attempts: 2, delay: 1, jitter: none }
        output: http
`;

describe.each(['compiled', 'interpreted'] as const)('%s', (mode) => {
  it('one key for every attempt of an execution, another for the next run; no id made when nothing reads it', async () => {
    const plan = await planOf('exec-id.yaml', mode, CONFIG);
    const base = testEnv({ API: up.url });
    let made = 0;
    const env = { ...base, uuid: () => { made++; return base.uuid(); } };
    const run = (name: string, body: unknown) => executeInterface(plan, plan.interfaces.find((i) => i.name === name)!, postRequest(`/${name}`, body), { trigger: 'http', env, services: { clock: systemClock } });
    const keys = (k: string) => up.hits.filter((h) => h.path === `/twice/${mode}-${k}`).map((h) => h.headers['idempotency-key']);

    expect((await run('keyed', { k: `${mode}-1` })).response.status).toBe(200);
    expect((await run('keyed', { k: `${mode}-2` })).response.status).toBe(200);
    const [first, second] = [keys('1'), keys('2')];
    expect(first).toHaveLength(3);
    expect(new Set(first).size).toBe(1);
    expect(new Set(second).size).toBe(1);
    expect(first[0]).not.toBe(second[0]);

    made = 0;
    expect((await run('plain', null)).response.status).toBe(200);
    expect(made).toBe(1); // the run's id only
  });
});
