import { describe, expect, it } from 'vitest';
import schema from '../../compiler/schema/config.schema.json' with { type: 'json' };
import { transforms } from '../../runtime/transforms/index.ts';
import { asserts } from '../../runtime/asserts/index.ts';

// The schema is the catalogue (one property per transform and per Test operator, from the spec):
// the runtime must implement exactly that, no more and no less.
describe('registries match the config schema', () => {
  it('every transform of the schema is implemented, with a spec and a run, and no inherited names', () => {
    const listed = Object.keys(schema.definitions.Transform.properties).sort();
    expect(Object.keys(transforms).sort()).toEqual(listed);
    for (const def of Object.values(transforms)) {
      expect(typeof def.run).toBe('function');
      expect(typeof def.spec).toBe('object');
    }
    expect(transforms['constructor']).toBeUndefined();
    expect(transforms['toString']).toBeUndefined();
  });

  it('every Test operator of the schema is implemented', () => {
    const subjects = new Set(['value', 'jq', 'json_path']);
    const ops = Object.keys(schema.definitions.Test.properties).filter((k) => !subjects.has(k)).sort();
    expect(Object.keys(asserts).sort()).toEqual(ops);
  });
});
