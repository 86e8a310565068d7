// listAt with `deep` (`$..items…`): the fast code may take the root's array only when `..` selects that
// one place, i.e. no record anywhere below the root has its own member of that name, and the value nests
// no deeper than the engine goes.
import { describe, expect, it } from 'vitest';
import { listAt } from '../../runtime/specialised/records.ts';
import { MAX_DEPTH } from '../../runtime/jsonpath/env.ts';

const nest = (levels: number, leaf: unknown): unknown => {
  let v = leaf;
  for (let i = 0; i < levels; i++) v = i % 2 ? [v] : { x: v };
  return v;
};

describe('listAt, deep', () => {
  const items = [{ price: 1, tags: ['a'], more: { q: 1 } }, null, 3, [{ price: 2 }]];

  it('takes the root array when nothing below has the name', () => {
    expect(listAt({ page: 1, items, other: { a: [{ b: 1 }] } }, ['items'], true)).toBe(items);
    // An inherited member is not the record's own: `..` does not select it.
    const rec = Object.create({ items: [1] }) as Record<string, unknown>;
    rec.price = 1;
    expect(listAt({ items: [rec] }, ['items'], true)).toBeDefined();
  });

  it('refuses when a record anywhere below has its own member of the name', () => {
    expect(listAt({ items: [{ items: [] }] }, ['items'], true)).toBeUndefined();
    expect(listAt({ items: [{ a: { items: null } }] }, ['items'], true)).toBeUndefined();
    expect(listAt({ items: [[[{ items: 1 }]]] }, ['items'], true)).toBeUndefined();
    expect(listAt({ items: [], other: { deeper: [{ items: 1 }] } }, ['items'], true)).toBeUndefined();
    expect(listAt(JSON.parse('{"items":[{"__proto__":{"items":1}}]}'), ['items'], true)).toBeUndefined();
  });

  it('refuses values nested as deep as the engine stops, takes those just above', () => {
    const at = (levels: number) => listAt({ items: [], other: nest(levels, 1) }, ['items'], true);
    // The root is level 1 and `other`'s value level 2: the deepest container allowed is MAX_DEPTH - 2.
    expect(at(MAX_DEPTH - 3)).toBeDefined();
    expect(at(MAX_DEPTH - 2)).toBeUndefined();
    expect(at(MAX_DEPTH + 50)).toBeUndefined();
    expect(listAt({ items: [nest(MAX_DEPTH, 1)] }, ['items'], true)).toBeUndefined();
  });

  it('without deep, looks only at the path', () => {
    expect(listAt({ items: [{ items: [] }] }, ['items'], false)).toBeDefined();
  });
});
