// Retry rules against a real upstream that counts hits: attempt counts per status class, on/except,
// transport classes, polling asserts, spacing with jitter none, Retry-After, fresh uuids per attempt.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeInterface } from '../../runtime/exec/run.ts';
import { nextWait } from '../../runtime/exec/retry.ts';
import { systemClock } from '../../runtime/services.ts';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { processEnvironment } from '../../runtime/environment.ts';
import { planOf } from '../support/plans.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';

type Up = Awaited<ReturnType<typeof countingUpstream>>;
let up: Up;
let closedPort: number;

beforeAll(async () => {
  up = await countingUpstream({
    '/status/*': (req, res) => json(res, Number(req.url!.split('/')[2]!.split('?')[0]), { n: 1 }),
    '/poll': (_q, res, n) => json(res, 200, { done: n >= 3, n }),
    '/retry-after': (_q, res, n) => (n === 1 ? json(res, 503, {}, { 'retry-after': '1' }) : json(res, 200, { ok: true })),
    '/retry-after-capped': (_q, res, n) => (n === 1 ? json(res, 503, {}, { 'retry-after': '5' }) : json(res, 200, { ok: true })),
    '/hang': () => new Promise(() => {}),
  });
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  closedPort = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
});
afterAll(async () => { await up.close(); await closeHttpPools(); });

let seq = 0;
async function run(action: string, mode: 'compiled' | 'interpreted' = 'compiled') {
  const yaml = `interfaces:\n  x:\n    actions:\n${action.replace(/^/gm, '      ')}\n`;
  const plan = await planOf(`retry${++seq}.yaml`, mode, yaml);
  const i = plan.interfaces[0]!;
  const env = processEnvironment({ SERVICE__VAR__API: up.url, SERVICE__VAR__CLOSED: `http://127.0.0.1:${closedPort}` });
  return executeInterface(plan, i, { method: 'GET', path: '/x', params: {}, headers: {}, body: null, rawBody: '' }, { trigger: 'test', env, services: { clock: systemClock } });
}
const hitsOf = (path: string) => up.hits.filter((h) => h.path.startsWith(path));

describe('default retryable set', () => {
  it.each([
    [408, 3], [429, 3], [500, 3], [502, 3], [503, 3], [504, 3],
    [501, 1], [505, 1], [400, 1], [401, 1], [404, 1], [422, 1],
  ])('HTTP %i is attempted %i time(s) of 3', async (status, expected) => {
    const path = `/status/${status}?t=${++seq}`;
    const r = await run(`- name: A\n  url: a|var::API|${path}\n  retry: { attempts: 3, delay: 1, jitter: none }`);
    expect(r.state.steps.A!.attempts).toBe(expected);
    expect(hitsOf(path).length).toBe(expected);
    expect(r.state.steps.A!.status).toBe(status);
  });
});

describe('on and except', () => {
  it.each([
    ['on: [5xx]', 501, 3],
    ['on: [404]', 404, 3],
    ['on: [404]', 503, 1],
    ['except: [503]', 503, 1],
    ['except: [503]', 502, 3],
    ['on: [any], except: [4xx]', 409, 1],
    ['on: [any], except: [4xx]', 500, 3],
  ])('%s: HTTP %i attempted %i time(s)', async (rule, status, expected) => {
    const path = `/status/${status}?t=${++seq}`;
    const r = await run(`- name: A\n  url: a|var::API|${path}\n  retry: { attempts: 3, delay: 1, jitter: none, ${rule} }`);
    expect(hitsOf(path).length).toBe(expected);
    expect(r.state.steps.A!.attempts).toBe(expected);
  });
});

describe('transport classes', () => {
  it('retries a refused connection by default and with on: [connect]', async () => {
    for (const on of ['', ', on: [connect]']) {
      const r = await run(`- name: A\n  url: a|var::CLOSED|/x\n  retry: { attempts: 3, delay: 1, jitter: none${on} }`);
      expect(r.state.steps.A!.attempts).toBe(3);
      expect(r.state.steps.A!.error).toMatch(/ECONNREFUSED/);
    }
  });
  it('does not retry a timeout after sending under on: [connect], but does under on: [timeout]', async () => {
    const a = await run(`- name: A\n  url: a|var::API|/hang?a\n  http: { timeout: 100ms }\n  retry: { attempts: 3, delay: 1, jitter: none, on: [connect] }`);
    expect(a.state.steps.A!.attempts).toBe(1);
    const b = await run(`- name: A\n  url: a|var::API|/hang?b\n  http: { timeout: 100ms }\n  retry: { attempts: 2, delay: 1, jitter: none, on: [timeout] }`);
    expect(b.state.steps.A!.attempts).toBe(2);
    expect(b.response.status).toBe(504);
  });
});

describe('asserts and non-HTTP actions', () => {
  it('retries an accepted status whose assert fails (polling until done)', async () => {
    const r = await run(`- name: Poll\n  url: a|var::API|/poll\n  retry: { attempts: 5, delay: 1, jitter: none }\n  assert:\n    tests:\n      - value: a|Poll->done|\n        is_equal_to: true\n  output: http`);
    expect(r.state.steps.Poll!.attempts).toBe(3);
    expect(r.response).toMatchObject({ status: 200, body: { done: true, n: 3 } });
  });
  it('retries every failure of a non-HTTP action, on/except notwithstanding', async () => {
    const r = await run(`- name: A\n  input: { v: 1 }\n  retry: { attempts: 3, delay: 1, jitter: none, on: [404] }\n  assert:\n    tests:\n      - value: a|A->v|\n        is_equal_to: 2`);
    expect(r.state.steps.A!.attempts).toBe(3);
    expect(r.response.status).toBe(422);
  });
});

describe('waits', () => {
  it('spaces attempts by delay, doubling with exponential_backoff (jitter none)', async () => {
    const path = `/status/503?t=${++seq}`;
    await run(`- name: A\n  url: a|var::API|${path}\n  retry: { attempts: 3, delay: 100, exponential_backoff: true, jitter: none }`);
    const at = hitsOf(path).map((h) => h.at);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(90);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(190);
    expect(at[2]! - at[0]!).toBeLessThan(2000);
  });
  it('caps every wait at max_delay', async () => {
    const path = `/status/503?t=${++seq}`;
    await run(`- name: A\n  url: a|var::API|${path}\n  retry: { attempts: 3, delay: 1000, exponential_backoff: true, max_delay: 50, jitter: none }`);
    const at = hitsOf(path).map((h) => h.at);
    expect(at[2]! - at[0]!).toBeLessThan(600);
  });
  it('honours Retry-After (seconds), still bounded by max_delay', async () => {
    const t0 = Date.now();
    const r = await run(`- name: A\n  url: a|var::API|/retry-after\n  retry: { attempts: 2, delay: 1, jitter: none }`);
    expect(r.state.steps.A!.outcome).toBe('succeeded');
    expect(hitsOf('/retry-after')).toHaveLength(2);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
    expect(Date.now() - t0).toBeLessThan(3000);
    const t1 = Date.now();
    const capped = await run(`- name: A\n  url: a|var::API|/retry-after-capped\n  retry: { attempts: 2, delay: 1, jitter: none, max_delay: 200 }`);
    expect(capped.state.steps.A!.outcome).toBe('succeeded');
    expect(Date.now() - t1).toBeGreaterThanOrEqual(150);
    expect(Date.now() - t1).toBeLessThan(2000);
  });
  it('full jitter waits a random time in [0, computed); none waits exactly; Retry-After is not jittered', () => {
    const r = { attempts: 3, delay: 300, exponential: true, jitter: 'full' as const, respectRetryAfter: true };
    expect(nextWait(r, 2, {}, () => 0.5)).toBe(150);
    expect(nextWait(r, 3, {}, () => 0.5)).toBe(300);
    expect(nextWait(r, 2, {}, () => 0.999)).toBeLessThan(300);
    expect(nextWait({ ...r, jitter: 'none' }, 3, {}, () => 0)).toBe(600);
    expect(nextWait(r, 2, { retryAfterMs: 2000 }, () => 0)).toBe(2000);
    expect(nextWait({ ...r, maxDelay: 500 }, 2, { retryAfterMs: 2000 }, () => 0)).toBe(500);
    expect(nextWait({ ...r, respectRetryAfter: false, jitter: 'none' }, 2, { retryAfterMs: 2000 })).toBe(300);
  });
});

describe('markers per attempt', () => {
  it.each(['compiled', 'interpreted'] as const)('a|uuid| is fresh on every attempt (%s)', async (mode) => {
    const path = `/status/503?u=${++seq}`;
    await run(`- name: A\n  url: a|var::API|${path}\n  http: { headers: { x-attempt-id: a|uuid| } }\n  retry: { attempts: 3, delay: 1, jitter: none }`, mode);
    const ids = hitsOf(path).map((h) => h.headers['x-attempt-id']);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
  });
});
