// Property: chains the compiler fuses into one loop (compiler/codegen/specialise/fuse.ts) answer
// byte-identically through the fast path and the interpreter, on random records: hostile keys
// (`__proto__`, `constructor`, `length`), missing fields, null, numbers as text, decimals, elements that are
// not records, and the array at the top or under `items`. Each chain exercises one rule of the
// fusion: math fields kept in variables and read by an aggregate, a filter reading a math field
// (the record written out first), an expression reading an earlier one, a dotted read through a
// math field, and the array result of a chain without an aggregate. The loop reads plain names of its
// records plainly, tests numbers before toNumber and picks by a JSONPath filter's test for records:
// hostile numbers (-0, NaN, ±Infinity, 1e308 whose products overflow, the smallest double) beside text,
// null and objects keep both paths one.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { executeInterface, type RunResult } from '../../runtime/exec/run.ts';
import type { Plan } from '../../runtime/plan.ts';
import { systemClock } from '../../runtime/services.ts';
import { planOf, testEnv } from '../support/plans.ts';

const chains: Record<string, string[]> = {
  'filter → math → aggregate': [
    '{ filter: { conditions: { v: { is_greater_than: 0 } } } }',
    '{ math: { expressions: { t: "target.v * 2", __proto__: "target.v + 1" } } }',
    '{ aggregate: { group_by: [cat], sum: [t, __proto__, v], min: [t], max: [v], avg: [__proto__], count: true } }',
  ],
  'the same under $.items': [
    '{ filter: { target: $.items, conditions: { v: { is_less_than: 10 }, cat: { is_not_null: true } } } }',
    '{ math: { target: $.items, expressions: { t: "target.v / 3" }, decimal_places: 2 } }',
    '{ aggregate: { over: $.items, group_by: [cat, a], sum: [t], avg: [t] } }',
  ],
  'a filter reading math fields; an array result': [
    '{ math: { expressions: { a: "target.v + 1", x: "target.a * 2" } } }',
    '{ filter: { conditions: { a: { is_greater_than: 0 }, x.y: { is_null: true } } } }',
    '{ math: { expressions: { b: "target.x - target.t" }, decimal_places: 1 } }',
  ],
  'expressions reading earlier ones and the whole record, under $.items': [
    '{ filter: { target: $.items, conditions: { __proto__: { is_not_null: true } } } }',
    '{ math: { target: $.items, expressions: { w: "target.v", v: "target.w * 3", n: "target.a + 1" } } }',
    '{ math: { target: $.items, expressions: { all: "string(target)" } } }',
  ],
  'dotted reads through a math field': [
    '{ math: { expressions: { c: "target.v", cat: "target.cat + 1" } } }',
    '{ aggregate: { sum: [c.x, t, cat], max: [c], group_by: [c, cat.x] } }',
  ],
  // Plain names are read plainly by generated code, names a prototype has (`length` of a string or an
  // array element) through the own-property read (compiler/emit/plain-key.ts).
  'prototype names beside plain ones': [
    '{ filter: { conditions: { length: { is_not_null: true } } } }',
    '{ math: { expressions: { t: "target.length + target.v", u: "target.v * 2" } } }',
    '{ aggregate: { group_by: [length, cat], sum: [t, u, length], count: true } }',
  ],
  'plain reads of elements that are not records': [
    '{ filter: { conditions: { v: { is_greater_than: -100 } } } }',
    '{ aggregate: { group_by: [cat], sum: [v], max: [length] } }',
  ],
  // The benchmark's chain (bench/scenarios/target-forms.ts) over hostile values.
  'filter → math of two fields → sum by group': [
    '{ filter: { conditions: { v: { is_greater_than: 10 } } } }',
    '{ math: { expressions: { total: "target.v * target.a" } } }',
    '{ aggregate: { group_by: [cat], sum: [total], count: true } }',
  ],
  'math picked by a JSONPath filter: plain names, prototype names, nested and $-free': [
    '{ filter: { target: $.items, conditions: { cat: { is_not_null: true } } } }',
    '{ math: { target: "$.items[?@.v > 10 || @.length > 0 || @.c.x == 1 || @.t >= -0 || @.a == \'1.5\']", expressions: { t: "target.v * target.a", u: "target.t - 1" } } }',
    '{ aggregate: { over: $.items, group_by: [cat], sum: [t, u], min: [v], count: true } }',
  ],
  'filters only': [
    '{ filter: { conditions: { v: { is_not_null: true } } } }',
    '{ filter: { conditions: { cat: { is_one_of: [books, toys] } } } }',
    '{ aggregate: { count: true, min: [v] } }',
  ],
};

const KEYS = ['a', 'v', 't', 'x', 'cat', 'c', '__proto__', 'constructor', 'items', 'length'];
function bodies() {
  const leaf = fc.oneof(
    fc.integer({ min: -50, max: 50 }), fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
    fc.constantFrom('1.5', '-2', '0.1', '0.2', 'abc', '', ' 3 ', '1e3', 'books', 'toys'), fc.constant(null), fc.boolean(), fc.constant({ x: 1, y: null }),
    fc.constantFrom(1e308, -1e308, 5e-324, 2 ** 53 + 2, 11, 20.5, ...Object.keys(HOSTILE)),
  );
  const rec = fc.dictionary(fc.constantFrom(...KEYS), leaf, { maxKeys: 6 });
  const element = fc.oneof({ weight: 12, arbitrary: rec }, fc.constant(null), fc.integer(), fc.array(fc.integer(), { maxLength: 2 }), fc.constantFrom('abc', ''));
  const list = fc.array(element, { maxLength: 12 });
  // Records only: the loop runs to the end (an element that is not a record sends it to the stages).
  const records = fc.array(rec, { maxLength: 12 });
  const body = fc.oneof({ weight: 4, arbitrary: list }, { weight: 3, arbitrary: list.map((items) => ({ page: 1, items })) },
    { weight: 3, arbitrary: records }, { weight: 3, arbitrary: records.map((items) => ({ page: 1, items })) },
    fc.constant({ items: null }), fc.constant(7), rec);
  // Through JSON, as an HTTP body arrives: an own "__proto__" key, no undefined; -0 (as JSON.parse
  // reads "-0"), NaN and ±Infinity (as other actions may hand them on) put back in.
  return body.map((d) => JSON.parse(JSON.stringify(d ?? null), (_k, v: unknown) => (typeof v === 'string' && Object.hasOwn(HOSTILE, v) ? HOSTILE[v] : v)) as unknown);
}

const HOSTILE: Record<string, number> = { '#-0': -0, '#NaN': NaN, '#Inf': Infinity, '#-Inf': -Infinity };

const yamlOf = (steps: string[], input = 'a|body|') =>
  `interfaces:\n  c:\n    method: POST\n    actions:\n      - name: T\n        input: ${input}\n        post_transforms:\n${steps.map((s) => `          - ${s}\n`).join('')}`;

async function run(plan: Plan, body: unknown): Promise<RunResult> {
  const i = plan.interfaces[0]!;
  const request = { method: 'POST', path: i.route, params: {}, headers: { 'content-type': 'application/json' }, body, rawBody: JSON.stringify(body) };
  return executeInterface(plan, i, request, { trigger: 'test', env: testEnv(), services: { clock: systemClock } });
}

async function both(yaml: string): Promise<[Plan, Plan]> {
  return [await planOf('chain.yaml', 'compiled', yaml), await planOf('chain.yaml', 'interpreted', yaml)];
}

describe('fused chains: fast path = interpreter on random records', () => {
  for (const [name, steps] of Object.entries(chains)) {
    it(name, async () => {
      const [fast, slow] = await both(yamlOf(steps));
      let succeeded = 0;
      await fc.assert(fc.asyncProperty(bodies(), async (body) => {
        const a = await run(fast, body);
        const b = await run(slow, body);
        expect(JSON.stringify(a.response)).toBe(JSON.stringify(b.response));
        if (a.response.status === 200) succeeded++;
      }), { numRuns: 150, seed: 20261126, endOnFailure: true });
      expect(succeeded, `${name} never succeeded`).toBeGreaterThan(20);
    }, 30_000);
  }

  it('an array also held by an earlier key is worked on there, as the target rule says', async () => {
    const steps = chains['the same under $.items']!;
    const [fast, slow] = await both(yamlOf(steps, '{ first: a|body->items|, items: a|body->items| }'));
    const items = [{ v: 1, cat: 'books' }, { v: 20, cat: 'toys' }, { v: 2, cat: 'toys' }];
    const a = await run(fast, { items });
    expect(a.response.status).toBe(200);
    expect(JSON.stringify(a.response)).toBe(JSON.stringify((await run(slow, { items })).response));
  });

  it('errors keep their transform and line', async () => {
    const [fast, slow] = await both(yamlOf(['{ filter: { conditions: { v: { is_not_null: true } } } }', '{ math: { expressions: { t: "target.v" } } }']));
    for (const body of [{ v: 1 }, 'text']) {
      const a = await run(fast, body);
      expect(JSON.stringify(a.response)).toBe(JSON.stringify((await run(slow, body)).response));
      expect(a.response.status).toBeGreaterThanOrEqual(400);
    }
  });
});
