// Every example is complete (a config, its hermetic cases, a README) and linked from the guide, and
// every example's and fixture's cases file names only interfaces its config has.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { fixtureConfigs } from '../support/fixture-configs.ts';

const examples = readdirSync('examples', { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
const guide = readFileSync('docs/guide.md', 'utf8');
const index = readFileSync('examples/README.md', 'utf8');

/** Each config with hermetic cases: every example's, and every fixture's. */
export const configsWithCases = [
  ...examples.map((n) => join('examples', n, `${n}.yaml`)),
  ...fixtureConfigs().map((f) => join('fixtures', f)),
];

describe('examples/', () => {
  it('has the seven examples the issue asks for', () => {
    expect(examples).toEqual(['lead-enrichment', 'mcp-inventory', 'nightly-export', 'order-feed', 'refund-approval', 'signed-webhook', 'support-agent']);
  });

  it.each(examples)('%s has a config, a tests file and a README, and is linked from the guide and the index', (n) => {
    for (const f of [`${n}.yaml`, `${n}.tests.yaml`, 'README.md']) expect(existsSync(join('examples', n, f)), `${n}/${f}`).toBe(true);
    const lines = readFileSync(join('examples', n, 'README.md'), 'utf8').trimEnd().split('\n').length;
    expect(lines).toBeGreaterThanOrEqual(15);
    expect(lines).toBeLessThanOrEqual(40);
    expect(guide).toContain(`(../examples/${n}/)`);
    expect(index).toContain(`(${n}/)`);
  });
});

describe.each(configsWithCases)('%s', (config) => {
  it('has a cases file whose cases name interfaces of the config, each name once', () => {
    const cases = parse(readFileSync(config.replace(/\.yaml$/, '.tests.yaml'), 'utf8')) as { cases: Array<{ name: string; interface: string }> };
    const interfaces = Object.keys((parse(readFileSync(config, 'utf8')) as { interfaces: object }).interfaces);
    expect(cases.cases.length).toBeGreaterThan(0);
    for (const c of cases.cases) expect(interfaces, c.name).toContain(c.interface);
    expect(new Set(cases.cases.map((c) => c.name)).size).toBe(cases.cases.length);
    // Every interface is tested.
    expect(interfaces.filter((i) => !cases.cases.some((c) => c.interface === i))).toEqual([]);
  });
});
