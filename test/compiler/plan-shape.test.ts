// One walk builds both plans: for every fixture the generated module's plan and the interpreter's
// have the same fields everywhere, the same static values, and functions in the same places, with
// default-valued fields left out of both.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planOf } from '../support/plans.ts';
import { fixtureConfigs } from '../support/fixture-configs.ts';

const fixtures = fixtureConfigs();

/** The plan with every function replaced by a marker of its place, and the mode dropped. */
function shape(v: unknown): unknown {
  if (typeof v === 'function') return '<fn>';
  if (Array.isArray(v)) return v.map(shape);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'mode').map(([k, x]) => [k, shape(x)]));
}

describe('compiled and interpreted plans', () => {
  it.each(fixtures)('%s: same shape, same values, no default-valued fields', async (file) => {
    const compiled = await planOf(join('fixtures', file), 'compiled');
    const interpreted = await planOf(join('fixtures', file), 'interpreted');
    expect(compiled.mode).toBe('compiled');
    expect(interpreted.mode).toBe('interpreted');
    expect(shape(compiled)).toEqual(shape(interpreted));
    const text = JSON.stringify(shape(interpreted));
    expect(text).not.toMatch(/"hide":\{\}|"disableFastpath":false|"showErrorDetail":false|"features"/);
  });
});
