import { describe, expect, it } from 'vitest';
import { parseYamlWithPositions } from '../../compiler/source/yaml.ts';
import { check } from './helpers.ts';

const TEXT = `defaults: &d
  retry: { attempts: 2 }
interfaces:
  orders:
    actions:
      - name: Fetch
        <<: *d
        http:
          url: https://x
      - name: Empty
        http:
`;

describe('parseYamlWithPositions', () => {
  const r = parseYamlWithPositions('t.yaml', TEXT);

  it('returns the plain value, merges applied', () => {
    expect(r.diagnostics).toEqual([]);
    expect((r.value as any).interfaces.orders.actions[0]).toEqual({ name: 'Fetch', retry: { attempts: 2 }, http: { url: 'https://x' } });
  });

  it('locates keys, values and list items (1-based)', () => {
    expect(r.locate([])).toEqual({ line: 1, col: 1 });
    expect(r.locate(['interfaces', 'orders'])).toEqual({ line: 4, col: 3 });
    expect(r.locate(['interfaces', 'orders', 'actions', 0])).toEqual({ line: 6, col: 9 });
    expect(r.locate(['interfaces', 'orders', 'actions', 0, 'http', 'url'])).toEqual({ line: 9, col: 11 });
    expect(r.locate(['interfaces', 'orders', 'actions', 0, 'http', 'url'], 'value')).toEqual({ line: 9, col: 16 });
  });

  it('falls back to the nearest existing ancestor', () => {
    expect(r.locate(['interfaces', 'orders', 'actions', 1, 'http', 'url'])).toEqual({ line: 11, col: 9 });
    expect(r.locate(['interfaces', 'nope', 'actions'])).toEqual({ line: 3, col: 1 });
    expect(r.locate(['interfaces', 'orders', 'actions', 9])).toEqual({ line: 5, col: 5 });
  });

  it('follows merge keys to where the value is written', () => {
    expect(r.locate(['interfaces', 'orders', 'actions', 0, 'retry', 'attempts'])).toEqual({ line: 2, col: 12 });
  });

  it('accepts string array indexes as well as numbers', () => {
    expect(r.locate(['interfaces', 'orders', 'actions', '1'])).toEqual({ line: 10, col: 9 });
  });

  it('reads `on` as a string key (YAML 1.2), as retry.on needs', () => {
    expect(parseYamlWithPositions('t.yaml', 'on: [5xx]\n').value).toEqual({ on: ['5xx'] });
  });
});

describe('YAML problems', () => {
  it('syntax errors become positioned diagnostics', () => {
    const text = `interfaces:\n  orders:\n    method: [GET\n    route: /x\n`;
    const ds = check(text);
    expect(ds).toHaveLength(1);
    expect(ds[0]).toMatchObject({ at: '4:5', severity: 'error' });
    expect(ds[0].message).toMatch(/^YAML: /);
  });

  it('bad indentation', () => {
    expect(check('interfaces:\n  a:\n    method: GET\n   route: /x\n')).toEqual([
      { at: '4:4', severity: 'error', message: 'YAML: All mapping items must start at the same column' },
    ]);
  });

  it('tabs as indentation', () => {
    expect(check('interfaces:\n\ta: {}\n')[0]).toMatchObject({ at: '2:1', severity: 'error' });
  });

  it('duplicate keys are errors pointing at the second one', () => {
    const text = `interfaces:
  orders:
    method: GET
    method: POST
`;
    expect(check(text)).toEqual([
      { at: '4:5', severity: 'error', message: 'duplicate key "method"', hint: '"method" is already set on line 3; a key may appear only once in a mapping' },
    ]);
  });

  it('duplicate keys in flow mappings and nested lists', () => {
    const text = `interfaces:\n  a:\n    actions:\n      - { name: A, name: B }\n`;
    expect(check(text)).toEqual([
      { at: '4:20', severity: 'error', message: 'duplicate key "name"', hint: '"name" is already set on line 4; a key may appear only once in a mapping' },
    ]);
  });

  it('after a YAML error no schema or lint noise follows', () => {
    const text = `interfaces:\n  a:\n    methd: GET\n    x: [1\n`;
    expect(check(text).every((d) => d.message.startsWith('YAML: '))).toBe(true);
  });
});

describe('YAML problems without a position of their own', () => {
  it('an unresolved alias points at the alias', () => {
    expect(check('interfaces:\n  a: &x {}\n  b: *y\n')).toEqual([
      { at: '3:6', severity: 'error', message: 'YAML: Unresolved alias (the anchor must be set before the alias): y' },
    ]);
  });

  it('several documents in one file are an error', () => {
    expect(check('interfaces: {}\n---\ninterfaces: {}\n')[0]).toMatchObject({ at: '2:1', severity: 'error' });
  });
});
