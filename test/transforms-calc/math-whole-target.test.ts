// A math expression that is `target` itself stores a copy of the record as it stands, never the
// record inside itself (which JSON cannot encode: the run answered 500). Both paths, the specialised
// loop, and the fused filter → math → aggregate loop.
import { describe, expect, it } from 'vitest';
import { runBoth } from '../support/run-both.ts';

const config = (transforms: string) => `
interfaces:
  x:
    method: POST
    route: /x
    actions:
      - name: A
        input: a|body|
        post_transforms:
${transforms}
        output: http
`;

describe('math: an expression that is the whole target', () => {
  it('stores a copy of the record so far, on each element and on one object', async () => {
    const yaml = config(`          - math:
              expressions:
                total: target.price * 2
                all: target`);
    const r = await runBoth(yaml, 'x', { body: [{ price: 1 }, { price: 2 }, 'note'] });
    expect(r.response.status).toBe(200);
    expect(r.response.body).toEqual([{ price: 1, total: 2, all: { price: 1, total: 2 } }, { price: 2, total: 4, all: { price: 2, total: 4 } }, 'note']);
    const one = await runBoth(yaml, 'x', { body: { price: 3 } });
    expect(one.response.body).toEqual({ price: 3, total: 6, all: { price: 3, total: 6 } });
  });

  it('does the same inside a fused filter → math chain under a target', async () => {
    const yaml = config(`          - filter:
              target: $.items
              conditions:
                price:
                  is_greater_than: 1
          - math:
              target: $.items
              expressions:
                all: target
                total: target.price * 2`);
    const r = await runBoth(yaml, 'x', { body: { items: [{ price: 1 }, { price: 2 }] } });
    expect(r.response.status).toBe(200);
    expect(r.response.body).toEqual({ items: [{ price: 2, all: { price: 2 }, total: 4 }] });
  });
});
