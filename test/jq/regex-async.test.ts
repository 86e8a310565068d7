// jq programs that may run a regex run on a worker pool and are awaited (runtime/jq/pool.ts): while a
// catastrophic one runs, the server keeps answering other requests, in both paths; every kind of jq
// leaf that may await (transforms, filter conditions, tests, json_output, conditional_input) answers
// the same in both paths.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import { initJq, JqError, jqAllAsync } from '../../runtime/jq/engine.ts';
import { MAX_WAITING, POOL_SIZE } from '../../runtime/jq/pool.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { planOf, serveOn, testEnv } from '../support/plans.ts';
import { runBoth } from '../support/run-both.ts';

type Up = Awaited<ReturnType<typeof countingUpstream>>;
let up: Up;
// Resolved when the slow request's run has reached its upstream call: the catastrophic regex comes next.
let reached: () => void = () => {};
beforeAll(async () => {
  await initJq();
  up = await countingUpstream({ '/text': (_q, res) => { json(res, 200, { s: `${'a'.repeat(40)}b` }); res.on('finish', () => reached()); } });
});
afterAll(async () => { await up.close(); await closeHttpPools(); });
afterEach(() => { delete process.env.SERVICE__JQ_REGEX_TIMEOUT_MS; });

// Long enough for a plain request to be answered first on a loaded 2-core machine (milliseconds when idle).
const DEADLINE_MS = 1500;
const DEADLINE = `jq engine: the program did not finish within ${DEADLINE_MS} ms (SERVICE__JQ_REGEX_TIMEOUT_MS; a regex can take exponential time)`;

const served = `
interfaces:
  slow:
    show_error_detail: true
    actions:
      - name: A
        url: a|var::API|/text
        output: http
        assert:
          tests:
            # Oniguruma gives up one match after ~10^7 steps (about a second); retried, it outlasts the deadline.
            - jq: '.s as $s | [range(100) | try ($s | test("(a+)+$")) catch false] | any'
              is_equal_to: true
          error_message: no match
  plain:
    actions:
      - name: B
        input: a|body|
        output: http
`;

describe('jq regexes off the main thread', () => {
  it.each(['compiled', 'interpreted'] as const)('a plain request answers while a catastrophic regex runs (%s)', async (mode) => {
    process.env.SERVICE__JQ_REGEX_TIMEOUT_MS = String(DEADLINE_MS);
    const { app, url } = await serveOn([await planOf('served.yaml', mode, served)], testEnv({ API: up.url }));
    try {
      const done: string[] = [];
      const atRegex = new Promise<void>((r) => { reached = r; });
      const slow = fetch(`${url}/slow`, { method: 'POST' }).then(async (r) => { done.push('slow'); return { status: r.status, body: (await r.json()) as { error: { detail: string } } }; });
      await atRegex;
      const plain = await fetch(`${url}/plain`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"x":1}' });
      done.push('plain');
      expect(plain.status).toBe(200);
      expect(await plain.json()).toEqual({ x: 1 });
      const s = await slow;
      expect(done).toEqual(['plain', 'slow']);
      // The deadline and the 422 naming it are kept.
      expect(s.status).toBe(422);
      expect(s.body.error.detail).toBe(DEADLINE);
    } finally {
      await app.close();
    }
  });

  it('gives each of more catastrophic programs than workers its deadline, then answers again', async () => {
    process.env.SERVICE__JQ_REGEX_TIMEOUT_MS = '20'; // under the time the engine needs to reach its own retry limit
    const runs = Array.from({ length: POOL_SIZE + 1 }, () => jqAllAsync('test("(a+)+$")', `${'a'.repeat(40)}b`).then(() => 'answered', (e: unknown) => (e instanceof JqError ? e.message : String(e))));
    // A program without a regex does not wait for the pool.
    expect(await jqAllAsync('.a + 1', { a: 1 })).toEqual([2]);
    for (const r of await Promise.all(runs)) expect(r).toMatch(/did not finish within 20 ms/);
    expect(await jqAllAsync('[match("(?<x>b)").captures[0].name]', 'abc')).toEqual([['x']]);
    await expect(jqAllAsync('test("(")', 'a')).rejects.toThrow(/unmatched parenthesis/);
    await expect(jqAllAsync('test(', 'a')).rejects.toThrow(/syntax error/);
  });

  it('refuses a regex program at once when the line for the workers is full, and serves the rest', async () => {
    const n = POOL_SIZE + MAX_WAITING + 3;
    const runs = await Promise.all(Array.from({ length: n }, (_, i) => jqAllAsync('test("b$")', `a${i}b`).then((v) => v, (e: unknown) => (e instanceof JqError ? e.message : String(e)))));
    const refused = runs.filter((r) => typeof r === 'string');
    expect(refused.length).toBe(3);
    for (const r of refused) expect(r).toMatch(new RegExp(`^jq engine: ${MAX_WAITING} regex programs are already waiting for a worker`));
    expect(runs.filter((r) => Array.isArray(r))).toEqual(Array.from({ length: n - 3 }, () => [true]));
    expect(await jqAllAsync('test("b$")', 'ab')).toEqual([true]); // the line drained
  });

  it('awaits regex jq in transforms, filter conditions, json_output, conditional_input and run_on_assertion, alike in both paths', async () => {
    const r = await runBoth(`
interfaces:
  x:
    actions:
      - name: A
        input: a|body|
        post_transforms:
          - extract_with_jq: '.items'
          - filter:
              conditions:
                name:
                  jq: 'test("^a")'
                  is_equal_to: true
          - nested_transforms:
              name:
                - extract_with_jq: 'sub("a"; "A")'
        json_output:
          first: '.[0]'
          words: '[.[] | .name | scan("[a-z]+")]'
      - name: B
        conditional_input:
          - input: no
            tests:
              - jq: 'test("y")'
                is_equal_to: true
          - input: yes
            tests:
              - jq: 'test("y")'
                is_equal_to: true
      - name: C
        run_on_assertion:
          tests:
            - jq: '"yes" | test("^y")'
              is_equal_to: true
        input:
          a: a|A|
          b: a|B|
        output: http
`, 'x', { body: { items: [{ name: 'ab' }, { name: 'ba' }, { name: 'ac' }] } });
    expect(r.response.status).toBe(200);
    expect(r.response.body).toEqual({ a: { first: { name: 'Ab' }, words: ['b', 'c'] }, b: 'yes' });
  });
});
