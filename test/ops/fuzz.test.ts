// Issue 9: random configs through `check` and random requests to a served fixture (both paths).
// Whatever the input: no exception out of check, no crash, no stack trace in a response, and no
// 5xx for a client's mistake. Bounded run counts keep it a unit test.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { compileConfig } from '../../compiler/project.ts';
import { planOf, serveOn, testEnv } from '../support/plans.ts';

const closers: Array<() => Promise<unknown>> = [];
afterAll(async () => { for (const c of closers) await c(); });

const word = fc.constantFrom('GET', 'GE T', 'post', '/x', '/x/:id', '/_ap/runs', '99 * * * *', '0 * * * *', 'a|uuid|', 'a|body::id|', 'a|params::id|',
  '^(a+)+$', '(a)\\1', '(?<=a)b', '30d', '1s', '-1', 'aaaaaaaaaaaaaaaa', 'Mars/Olympus', '', 'a|', 'null');
const scalar = fc.oneof(word, fc.string({ maxLength: 12 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(1e11), fc.constant(99999999999999999999));
const field = fc.constantFrom('name', 'input', 'url', 'timeout', 'retry', 'lookup', 'lookup_concurrency', 'delay', 'wait_for_callback', 'assert', 'post_transforms',
  'pre_log', 'error_log', 'output', 'http', 'run_when_failed', 'item_timeout', 'extract_with_regex', 'replace_values');
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, scalar, fc.array(tie('v'), { maxLength: 3 }), fc.dictionary(fc.oneof(field, fc.constantFrom('attempts', 'token', 'regex', 'expr', 'keys', 'msg', 'level', 'tests', 'value', 'cron', 'enabled')), tie('v'), { maxKeys: 3 })),
})).v;
const action = fc.dictionary(field, value, { maxKeys: 5 });
const iface = fc.record({
  method: fc.option(word, { nil: undefined }),
  route: fc.option(word, { nil: undefined }),
  schedule: fc.option(fc.record({ cron: word, enabled: fc.boolean() }), { nil: undefined }),
  log: fc.option(fc.dictionary(fc.constantFrom('enabled', 'level', 'fields', 'other'), value, { maxKeys: 2 }), { nil: undefined }),
  actions: fc.array(action, { maxLength: 3 }),
}, { requiredKeys: ['actions'] });
const config = fc.record({ interfaces: fc.dictionary(fc.constantFrom('a', 'b', 'c', '__proto__', 'x y'), iface, { maxKeys: 3 }) });

describe('check on random configs', () => {
  it('returns diagnostics, never throws', () => {
    fc.assert(fc.property(config, fc.boolean(), (c, raw) => {
      const text = raw ? JSON.stringify(c).replace(/"/g, (m, i) => (i % 7 === 0 ? '' : m)) : stringify(c);
      const r = compileConfig('fuzz.yaml', text);
      for (const d of r.diagnostics) {
        expect(d.message).not.toMatch(/\n\s+at /);
        expect(Number.isInteger(d.line)).toBe(true);
      }
    }), { numRuns: 300 });
  });
});

describe.each(['compiled', 'interpreted'] as const)('random requests (%s)', (mode) => {
  it('answers every request, 4xx for client mistakes, never a stack trace', async () => {
    const plan = await planOf('quickstart.yaml', mode, readFileSync('fixtures/quickstart.yaml', 'utf8'));
    const { app, url } = await serveOn([plan], testEnv());
    closers.push(() => app.close());
    const request = fc.record({
      method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
      path: fc.oneof(fc.constantFrom('/hello', '/order_total', '/_ap/health', '/_ap/runs/x', '/_ap/resume/%00', '/nope'), fc.webPath()),
      query: fc.array(fc.tuple(fc.constantFrom('name', 'id', 'x'), fc.string({ maxLength: 40 })), { maxLength: 3 }),
      type: fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'text/plain', 'application/vnd.api+json', ''),
      body: fc.oneof(fc.json(), fc.string({ maxLength: 200 }), fc.constant('{"items": [{"price": "x", "qty": 1e400}]}'), fc.constant('{"items":')),
    });
    await fc.assert(fc.asyncProperty(request, async (r) => {
      const q = new URLSearchParams(r.query).toString();
      const hasBody = r.method !== 'GET';
      let res: Response;
      try {
        res = await fetch(`${url}${r.path.startsWith('/') ? r.path : `/${r.path}`}${q ? `?${q}` : ''}`, {
          method: r.method, ...(hasBody ? { body: r.body, headers: r.type ? { 'content-type': r.type } : {} } : {}),
        });
      } catch (e) {
        // fetch refuses some generated URLs before sending; that is the client library, not us.
        if (e instanceof TypeError && /URL|Invalid/.test(e.message)) return;
        throw e;
      }
      const text = await res.text();
      expect(text).not.toMatch(/\n\s+at |node_modules/);
      expect(res.status, `${r.method} ${r.path} ${r.type} ${r.body} -> ${text}`).toBeLessThan(500);
    }), { numRuns: 200 });
    expect((await fetch(`${url}/_ap/health`)).status).toBe(200);
  });
});
