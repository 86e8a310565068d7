// The pass/fail validator scripts/build-dist.mjs writes as standalone code (dist/ loads it instead
// of compiling the schema at every start) must agree with the full validator on every config.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { configSchema, configValidator, STANDALONE_OPTIONS, withKeywords } from '../../compiler/schema/ajv.ts';
import { JOBS, LEGACY, ORDERS, TRANSFORMS } from './configs.ts';
import { fixtureConfigs } from '../support/fixture-configs.ts';

const fixtures = join(import.meta.dirname, '..', '..', 'fixtures');
const valid = [ORDERS, JOBS, TRANSFORMS, LEGACY, ...fixtureConfigs(fixtures).map((f) => readFileSync(join(fixtures, f), 'utf8'))];
const action = (a: string) => `interfaces:\n  a:\n    method: GET\n    actions:\n      - name: X\n        url: http://x\n${a}`;
const invalid = [
  action('        post_transforms:\n          - filter: { conditions: {} }\n            math: { expressions: {} }\n'),
  action('        post_transforms:\n          - {}\n'),
  action('        retry: { attempts: -1 }\n'),
  action('        unknown_field: 1\n'),
  'interfaces: 3\n',
  'databases: {}\n',
];

describe('standalone config validator', () => {
  const quick = withKeywords(STANDALONE_OPTIONS).compile(configSchema);
  const full = configValidator();
  it.each(valid.map((t, i) => [i, t]))('accepts what the full validator accepts (%i)', (_i, text) => {
    const c = parse(text as string);
    expect(full(c)).toBe(true);
    expect(quick(c)).toBe(true);
  });
  it.each(invalid.map((t, i) => [i, t]))('refuses what the full validator refuses (%i)', (_i, text) => {
    const c = parse(text as string);
    expect(full(c)).toBe(false);
    expect(quick(c)).toBe(false);
  });
});
