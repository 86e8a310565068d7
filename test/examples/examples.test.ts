// Every example is complete (a config, its hermetic cases, a README) and linked from the guide; every
// example's and fixture's cases file covers its config's interfaces; and `pipewright test` passes
// every case of all of them with no network: one spawn for all the configs, inside a network
// namespace of its own (`unshare -rn`: no interface but a loopback that is down) where the machine
// has it, so a case that tried to reach anything would fail instead of reaching it.
import { spawnSync } from 'node:child_process';
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

describe('pipewright test', () => {
  const isolated = spawnSync('unshare', ['-rn', 'true']).status === 0;

  it(`passes every hermetic case of the examples and fixtures${isolated ? ' (unshare -rn: no network)' : ''}`, () => {
    const args = ['bin/pipewright.mjs', 'test', '--require-tests', '--reporter', 'json', ...configsWithCases];
    const r = isolated
      ? spawnSync('unshare', ['-rn', process.execPath, ...args], { encoding: 'utf8', timeout: 300_000 })
      : spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 300_000 });
    expect(r.stdout, r.stderr).not.toBe('');
    const report = JSON.parse(r.stdout) as { failed: number; tests: Array<{ file: string; interface: string; case?: string; ok: boolean; problems: string[] }> };
    expect(report.tests.filter((t) => !t.ok).map((t) => `${t.file} ${t.interface} › ${t.case ?? '(example)'}: ${t.problems.join('; ')}`)).toEqual([]);
    // Every case of every file ran.
    for (const config of configsWithCases) {
      const file = config.replace(/\.yaml$/, '.tests.yaml');
      const names = (parse(readFileSync(file, 'utf8')) as { cases: Array<{ name: string }> }).cases.map((c) => c.name);
      expect(report.tests.filter((t) => t.file === file && t.case !== undefined).map((t) => t.case).sort(), file).toEqual([...names].sort());
    }
    expect(r.status).toBe(0);
  }, 320_000);
});
