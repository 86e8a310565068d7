// docs/reference.md is generated from the JSON Schema: it must match what `check` accepts today.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { currentReference, referenceFile, renderReference, typeOf } from '../../compiler/schema/reference.ts';

describe('config reference', () => {
  it('is up to date with config.schema.json (npm run gen rewrites it)', () => {
    expect(readFileSync(referenceFile, 'utf8')).toBe(currentReference());
  });

  it('documents every definition and every field of the schema', () => {
    const schema = JSON.parse(readFileSync(new URL('../../compiler/schema/config.schema.json', import.meta.url), 'utf8'));
    const doc = renderReference(schema);
    for (const [name, def] of Object.entries<{ properties?: Record<string, unknown> }>(schema.definitions)) {
      expect(doc).toContain(`### ${name}\n`);
      for (const field of Object.keys(def.properties ?? {})) expect(doc).toContain(`| \`${field}\``);
    }
  });

  it('renders types with links, maps, unions and bounds', () => {
    expect(typeOf({ $ref: '#/definitions/Retry' })).toBe('[Retry](#retry)');
    expect(typeOf({ type: 'object', additionalProperties: { type: 'string' } })).toBe('map of string to string');
    expect(typeOf({ anyOf: [{ type: 'number' }, { type: 'array', items: { type: 'string' } }] })).toBe('number or array of string');
    const doc = renderReference({ properties: { n: { type: 'integer', minimum: 1, maximum: 50, default: 10, description: 'How many.' } }, required: ['n'] });
    expect(doc).toContain('| `n` (required) | integer | How many. (≥ 1, ≤ 50; default `10`) |');
  });
});
