// Property: every spelling of a target the compiler lowers to one normal form (compiler/jsonpath/records.ts)
// answers byte-identically through the fast path and the interpreter: `$.items`, `$['items']`, `items`,
// `$..items`, `$.a.b`, each with `[*]`, slices, unions and filters, in filter / math / aggregate alone and
// in fused chains, on random data of every shape the fast code must leave to the general rule: the array
// missing, null, an object or a number; empty; elements that are null, scalars or arrays; nested
// records with their own `items` (where `..` selects more than one place); nested nulls.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { executeInterface, type RunResult } from '../../runtime/exec/run.ts';
import type { Plan } from '../../runtime/plan.ts';
import { systemClock } from '../../runtime/services.ts';
import { planOf, testEnv } from '../support/plans.ts';

const ARRAYS = ['$.items', "$['items']", '$["items"]', 'items', '$..items', '$.a.b', "$['a']['b']", '$..b'];
const PICKS = ['[*]', '[0:]', '[1:4]', '[::2]', '[-2:]', '[::-1]', '[0,2]', '[1,-1]', '[5]', '[:2,4:6]', '[-1,0:3:2,::-3]', '[?@.price > 10]', '[?@.price > $.min]', '[?@.cat == "books" || @.qty]', '.*'];
const q = (s: string) => JSON.stringify(s);
const shorthand = (f: string) => f.startsWith('$.') || f.startsWith('$..');

const MATH = 'expressions: { total: "target.price * target.qty", twice: "target.total * 2" }';
const chains: Record<string, string[]> = {};
ARRAYS.forEach((f, i) => {
  chains[`filter → math[*] → aggregate on ${f}`] = [
    `{ filter: { target: ${q(f)}, conditions: { price: { is_greater_than: 10 } } } }`,
    `{ math: { target: ${q(f + (shorthand(f) ? '[*]' : ''))}, ${MATH} } }`,
    `{ aggregate: { over: ${q(f)}, group_by: [cat], sum: [total, twice], count: true } }`,
  ];
  chains[`filter alone, aggregate alone on ${f}`] = [
    `{ filter: { target: ${q(f)}, conditions: { cat: { is_not_null: true } } } }`,
    `{ nested_transforms: { s: [ { aggregate: { over: ${q(f)}, sum: [price], max: [qty] } } ] } }`,
  ];
  if (!shorthand(f)) return;
  PICKS.forEach((p, j) => {
    if ((i + j) % 2) return; // each pick under half the spellings
    if (p === '.*' && f.includes('[')) return;
    chains[`math ${f}${p} in a fused chain`] = [
      `{ filter: { target: ${q(f)}, conditions: { qty: { is_not_null: true } } } }`,
      `{ math: { target: ${q(f + p)}, ${MATH} } }`,
      `{ aggregate: { over: ${q(f)}, group_by: [cat], sum: [total], avg: [twice], count: true } }`,
    ];
    chains[`math ${f}${p} first, then on the array`] = [
      `{ math: { target: ${q(f + p)}, ${MATH} } }`,
      `{ math: { target: ${q(f)}, expressions: { n: "target.total + 1" } } }`,
    ];
  });
});

// Math writing the name `..` looks for makes new places for the next stage.
chains['math writing `items` under $..items, then a filter on $..items'] = [
  '{ math: { target: "$..items[*]", expressions: { items: "target.x", total: "target.price" } } }',
  '{ filter: { target: "$..items", conditions: { total: { is_greater_than: 3 } } } }',
  '{ aggregate: { over: "$..items", sum: [total], count: true } }',
];

// Picked math fields kept in variables: rewritten by a later stage on every record, read by a filter
// and an aggregate, over each other's picks (key order of picked and unpicked records).
chains['picked math fields rewritten, read and aggregated'] = [
  '{ math: { target: "$.items[1:]", expressions: { total: "target.price * 2", u: "target.qty" } } }',
  '{ math: { target: "$.items[*]", expressions: { w: "target.price" } } }',
  '{ math: { target: "$.items[::2]", expressions: { u: "target.price + 1", total: "target.total + 1" } } }',
  '{ math: { target: "$.items", expressions: { total: "target.qty" } } }',
  '{ math: { target: "$.items[0,3]", expressions: { z: "target.u" } } }',
];
chains['picked math fields rewritten by later stages on every record'] = [
  '{ math: { target: "$.items[1:]", expressions: { f: "target.price * 2" } } }',
  '{ math: { target: "$.items[*]", expressions: { g: "target.qty" } } }',
  '{ math: { target: "$.items", expressions: { f: "target.qty" } } }',
];
chains['picked math fields read by an aggregate'] = [
  '{ filter: { target: "$.items", conditions: { qty: { is_not_null: true } } } }',
  '{ math: { target: "$.items[:3]", expressions: { total: "target.price * 2", x: "target.qty" } } }',
  '{ aggregate: { over: "$.items", group_by: [x], sum: [total, x.a], max: [price], count: true } }',
];
chains['filter-picked math fields read by an aggregate'] = [
  '{ math: { target: "$.items[?@.qty > 2]", expressions: { y: "target.qty", total: "target.price" } } }',
  '{ aggregate: { over: "$.items", group_by: [y], sum: [total, y], count: true } }',
];

function bodies() {
  const leaf = fc.oneof(
    fc.integer({ min: -5, max: 30 }), fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e3, max: 1e3 }),
    fc.constantFrom('12.5', 'abc', '', 'books', 'toys'), fc.constant(null), fc.boolean(), fc.constant({ x: null }),
  );
  const rec = fc.oneof(
    fc.record({ price: fc.integer({ min: 0, max: 30 }), qty: fc.integer({ min: 1, max: 4 }), cat: fc.constantFrom('books', 'toys') }),
    fc.dictionary(fc.constantFrom('price', 'qty', 'cat', 'total', '__proto__', 'x'), leaf, { maxKeys: 5 }),
  );
  // A record may hold its own `items` / `b` (`..` then selects it too), an array or null there.
  const deepRec = fc.record({ items: fc.oneof(fc.array(rec, { maxLength: 2 }), fc.constant(null)) }).chain((r) => rec.map((x) => ({ ...x, ...r })));
  const element = fc.oneof({ weight: 14, arbitrary: rec }, fc.constant(null), fc.integer(), fc.array(rec, { maxLength: 2 }), fc.constant('abc'), deepRec, rec.map((r) => ({ ...r, b: [r] })));
  const list = fc.array(element, { maxLength: 12 });
  const body = fc.oneof(
    { weight: 2, arbitrary: list },
    { weight: 6, arbitrary: fc.record({ page: fc.constant(1), min: fc.integer({ min: 0, max: 20 }), items: list }) },
    { weight: 4, arbitrary: list.map((b) => ({ a: { b }, min: 5 })) },
    fc.constantFrom({ items: null }, { items: 5 }, {}, { a: { b: null } }, { a: { b: 'x' } }, { a: [] }, 7, null, { items: [] }),
    rec.map((r) => ({ items: { k: r, l: r } })),
    fc.record({ items: list, other: fc.record({ items: list, b: list }) }),
  );
  // Through JSON, as an HTTP body arrives: an own "__proto__" key, no -0 or undefined.
  return body.map((d) => JSON.parse(JSON.stringify(d ?? null)) as unknown);
}

const names = Object.keys(chains);
const yaml = 'interfaces:\n' + names.map((n, i) =>
  `  c${i}:\n    method: POST\n    actions:\n      - name: T\n        input: a|body|\n        post_transforms:\n${chains[n]!.map((s) => `          - ${s}\n`).join('')}`).join('');

async function run(plan: Plan, i: number, body: unknown): Promise<RunResult> {
  const iface = plan.interfaces[i]!;
  const request = { method: 'POST', path: iface.route, params: {}, headers: { 'content-type': 'application/json' }, body, rawBody: JSON.stringify(body) };
  return executeInterface(plan, iface, request, { trigger: 'test', env: testEnv(), services: { clock: systemClock } });
}

describe('target forms: fast path = interpreter on random data', async () => {
  const fast = await planOf('forms.yaml', 'compiled', yaml);
  const slow = await planOf('forms.yaml', 'interpreted', yaml);
  names.forEach((name, i) => {
    it(name, async () => {
      let succeeded = 0;
      await fc.assert(fc.asyncProperty(bodies(), async (body) => {
        const a = await run(fast, i, body);
        const b = await run(slow, i, body);
        expect(JSON.stringify(a.response)).toBe(JSON.stringify(b.response));
        if (a.response.status === 200) succeeded++;
      }), { numRuns: 60, seed: 20261206, endOnFailure: true });
      expect(succeeded, `${name} never succeeded`).toBeGreaterThan(5);
    });
  });
});
