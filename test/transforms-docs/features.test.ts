import { describe, expect, it } from 'vitest';
import { gateMessage, gateViolations, GATED } from '../../runtime/transforms/util/features.ts';
import { transforms } from '../../runtime/transforms/index.ts';
import { irOf } from '../support/plans.ts';
import { compileConfig } from '../../compiler/project.ts';

describe('features gate', () => {
  it('names the four heavy transforms, all registered', () => {
    expect([...GATED]).toEqual(['compress', 'decompress', 'parse_xlsx', 'parse_pdf']);
    for (const op of GATED) expect(transforms[op]).toBeDefined();
  });

  it('refuses a gated transform only when its feature is false', () => {
    expect(gateMessage('parse_pdf', { parse_pdf: false })).toBe('parse_pdf is turned off for this config (features.parse_pdf: false)');
    expect(gateMessage('parse_pdf', { parse_pdf: true })).toBeUndefined();
    expect(gateMessage('parse_pdf', {})).toBeUndefined();
    expect(gateMessage('parse_pdf', undefined)).toBeUndefined();
    expect(gateMessage('filter', { filter: false } as Record<string, boolean>)).toBeUndefined();
    expect(gateMessage('__proto__', {})).toBeUndefined();
  });

  it('reads the lowered settings of a config', () => {
    const ir = irOf('gate.yaml', 'features: { parse_pdf: false }\ninterfaces:\n  x:\n    actions:\n      - name: A\n        input: "1"\n');
    expect(gateMessage('parse_pdf', ir.settings.features)).toMatch(/turned off/);
    expect(gateMessage('compress', ir.settings.features)).toBeUndefined();
  });

  const uses = `
interfaces:
  x:
    actions:
      - name: A
        input: a|body|
        post_transforms:
          - parse_pdf: { value: file, key: text }
          - nested_transforms: { doc: [ { compress: { value: "", key: z } } ] }
          - decompress: { value: z, key: out }
`;

  it('a config that turns a feature off and uses it does not compile (nested chains too)', () => {
    for (const [features, op] of [['{ parse_pdf: false }', 'parse_pdf'], ['{ compress: false }', 'compress']] as const) {
      const c = compileConfig('gate.yaml', `features: ${features}\n${uses}`);
      expect(c.ok).toBe(false);
      expect(c.diagnostics.map((d) => d.message)).toContain(`${op} is turned off for this config (features.${op}: false)`);
    }
    expect(compileConfig('gate.yaml', `features: { parse_xlsx: false }\n${uses}`).ok).toBe(true);
  });

  it('gateViolations walks a compiled config against other features (e.g. hosted entitlements)', () => {
    const ir = irOf('gate.yaml', uses);
    expect(gateViolations(ir)).toEqual([]);
    expect(gateViolations(ir, { parse_pdf: false, compress: false })).toEqual([
      { op: 'parse_pdf', line: 8, message: 'parse_pdf is turned off for this config (features.parse_pdf: false)' },
      { op: 'compress', line: 9, message: 'compress is turned off for this config (features.compress: false)' },
    ]);
  });
});
