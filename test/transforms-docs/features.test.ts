import { describe, expect, it } from 'vitest';
import { gateMessage, gateViolations, GATED } from '../../runtime/transforms/util/features.ts';
import { transforms } from '../../runtime/transforms/index.ts';
import { irOf } from '../support/plans.ts';

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

  it('finds every use of a turned-off transform, nested chains and lookup actions included', () => {
    const ir = irOf('gate.yaml', `
features: { parse_pdf: false, compress: false }
interfaces:
  x:
    actions:
      - name: A
        input: a|body|
        post_transforms:
          - parse_pdf: { value: file, key: text }
          - nested_transforms: { doc: [ { compress: { value: "", key: z } } ] }
          - decompress: { value: z, key: out }
`);
    expect(gateViolations(ir)).toEqual([
      { op: 'parse_pdf', line: 9, message: 'parse_pdf is turned off for this config (features.parse_pdf: false)' },
      { op: 'compress', line: 10, message: 'compress is turned off for this config (features.compress: false)' },
    ]);
    expect(gateViolations(ir, { parse_pdf: true, compress: true })).toEqual([]);
    expect(gateViolations(irOf('ok.yaml', 'interfaces:\n  x:\n    actions:\n      - name: A\n        input: "1"\n        post_transforms:\n          - parse_pdf: { value: "", key: t }\n'))).toEqual([]);
  });
});
