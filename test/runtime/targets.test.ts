// A JSONPath `target` applies the transform to every node it selects (math, filter, flatten),
// through both paths, request to response. A target that selects nothing leaves the data as is.
import { describe, expect, it } from 'vitest';
import { runBoth } from '../support/run-both.ts';

const order = {
  id: 'o-1',
  items: [{ sku: 'A', price: 2, qty: 3 }, { sku: 'B', price: 5, qty: 1 }, { sku: 'C', price: 1.5, qty: 4 }],
  groups: [{ name: 'g1', members: [{ n: 1 }, { n: 5 }] }, { name: 'g2', members: [{ n: 7 }, { n: 2 }] }],
};
const withTransform = (t: string, extra = '') => `
interfaces:
  x:
    show_error_detail: true
    actions:
      - name: T
        input: a|body|
        output: http
        post_transforms:
          - ${t}
${extra}`;
const post = async (t: string, body: unknown = order) => (await runBoth(withTransform(t), 'x', { body })).response;

describe('JSONPath targets select several nodes', () => {
  it('math writes into every selected item, not only the first', async () => {
    const r = await post(`math: { target: "$.items[*]", expressions: { total: "target.price * target.qty" } }`);
    expect(r.status).toBe(200);
    expect((r.body as typeof order).items).toEqual([
      { sku: 'A', price: 2, qty: 3, total: 6 },
      { sku: 'B', price: 5, qty: 1, total: 5 },
      { sku: 'C', price: 1.5, qty: 4, total: 6 },
    ]);
  });

  it('math on a filtered selection changes only the selected items', async () => {
    const r = await post(`math: { target: "$.items[?@.qty > 1]", expressions: { bulk: "true" } }`);
    expect((r.body as typeof order).items.map((i) => (i as Record<string, unknown>).bulk ?? null)).toEqual([true, null, true]);
  });

  it('filter filters every selected array; siblings survive', async () => {
    const r = await post(`filter: { target: "$.groups[*].members", conditions: { n: { is_greater_than: 2 } } }`);
    expect((r.body as typeof order).groups).toEqual([{ name: 'g1', members: [{ n: 5 }] }, { name: 'g2', members: [{ n: 7 }] }]);
    expect((r.body as typeof order).id).toBe('o-1');
  });

  it('flatten flattens every selected object', async () => {
    const r = await post(`flatten: { key_separator: ".", target: "$.rows[*].meta" }`, { rows: [{ meta: { a: { b: 1 } } }, { meta: { c: [2] } }] });
    expect(r.body).toEqual({ rows: [{ meta: { 'a.b': 1 } }, { meta: { 'c.0': 2 } }] });
  });

  it('nested selections apply innermost first', async () => {
    const r = await post(`math: { target: "$..box", expressions: { n: "1" } }`, { box: { box: { v: 1 } } });
    expect(r.body).toEqual({ box: { box: { v: 1, n: 1 }, n: 1 } });
  });

  it('a target that selects nothing (or only nulls) leaves the data unchanged', async () => {
    for (const t of [`math: { target: "$.none[*]", expressions: { x: "1" } }`, `filter: { target: "$.missing", conditions: { n: { is_not_null: true } } }`, `flatten: { key_separator: ".", target: "$.nothing" }`]) {
      const r = await post(t, { items: [], nothing: null });
      expect(r).toEqual({ status: 200, headers: {}, body: { items: [], nothing: null } });
    }
  });

  it('a target that selects a scalar fails the action and says why', async () => {
    const r = await post(`math: { target: "$.items[*].sku", expressions: { x: "1" } }`);
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ error: { status: 500, message: 'action "T" failed', action: 'T', detail: 'math: the target selects a string, not an object or array', data: order } });
  });

  it('without a target the transform works on the data itself: null passes through, a scalar is refused', async () => {
    expect(await post(`math: { expressions: { x: "1" } }`, null)).toEqual({ status: 200, headers: {}, body: null });
    const r = await post(`math: { expressions: { x: "1" } }`, 5);
    expect(r.status).toBe(500);
    expect((r.body as { error: { detail: string } }).error.detail).toBe('math: the data is a number, not an object or array');
  });

  it('selected objects inside an array are replaced in place; unselected elements and siblings stay', async () => {
    const r = await post(`math: { target: "$.a[*].b", expressions: { n: "target.v * 2" } }`, { a: [{ b: { v: 1 } }, { c: 1 }, { b: { v: 3 } }], z: [1] });
    expect(r.body).toEqual({ a: [{ b: { v: 1, n: 2 } }, { c: 1 }, { b: { v: 3, n: 6 } }], z: [1] });
  });
});

// One value interpolated into two fields leaves one object at two places; each place is its own
// JSON value, so a target changes exactly the places it selects.
describe('JSONPath targets on a value that sits at several places', () => {
  const twice = (t: string, input = '{ b: a|body::x|, a: a|body::x|, list: [a|body::x|] }') => `
interfaces:
  x:
    show_error_detail: true
    actions:
      - name: T
        input: ${input}
        output: http
        post_transforms:
          - ${t}
`;
  const send = async (t: string, body: unknown, input?: string) => (await runBoth(twice(t, input), 'x', { body })).response;

  it('a target selecting every place changes every place', async () => {
    const r = await send(`math: { target: "$..n", expressions: { d: "target.v * 2" } }`, { x: { n: { v: 1 } } });
    expect(r.body).toEqual({ b: { n: { v: 1, d: 2 } }, a: { n: { v: 1, d: 2 } }, list: [{ n: { v: 1, d: 2 } }] });
  });

  it('a target selecting one place leaves the other places as they were', async () => {
    const x = { n: { v: 1 }, tags: ['t'] };
    const r = await send(`math: { target: "$.a", expressions: { d: "2" } }`, { x });
    expect(r.body).toEqual({ b: x, a: { ...x, d: 2 }, list: [x] });
    const inList = await send(`math: { target: "$.list[0]", expressions: { d: "2" } }`, { x });
    expect(inList.body).toEqual({ b: x, a: x, list: [{ ...x, d: 2 }] });
  });

  it('a node inside the shared value is selected at one place only', async () => {
    const r = await send(`filter: { target: "$.a.items", conditions: { k: { is_greater_than: 1 } } }`, { x: { items: [{ k: 1 }, { k: 2 }] } });
    expect(r.body).toEqual({ b: { items: [{ k: 1 }, { k: 2 }] }, a: { items: [{ k: 2 }] }, list: [{ items: [{ k: 1 }, { k: 2 }] }] });
  });

  it('a place chosen twice by the path still changes once', async () => {
    const r = await send(`math: { target: "$['a','a']", expressions: { d: "target.v + 1" } }`, { x: { v: 1 } });
    expect(r.body).toEqual({ b: { v: 1 }, a: { v: 1, d: 2 }, list: [{ v: 1 }] });
  });
});
