// The committed out/ is what the compiler produces today, it type-checks, and hostile configs
// compile to code that treats every string as data.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Project } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { generateModule } from '../../compiler/codegen/module.ts';
import { irOf } from '../support/plans.ts';
import { fixtureConfigs } from '../support/fixture-configs.ts';

const fixtures = fixtureConfigs();

describe('out/ is fresh', () => {
  it.each(fixtures)('%s: regeneration changes nothing (run `npm run gen` if this fails)', async (file) => {
    const ir = irOf(join('fixtures', file));
    const committed = readFileSync(join('out', ir.name, `${ir.name}.ts`), 'utf8');
    expect(await generateModule(ir)).toBe(committed);
  });

  it('has no module for a fixture that no longer exists', () => {
    const names = fixtures.map((f) => f.replace(/\.yaml$/, '')).sort();
    expect(readdirSync('out').sort()).toEqual(names);
  });
});

describe('generated code', () => {
  it('is deterministic: the same config gives the same bytes', async () => {
    const ir = irOf('fixtures/report.yaml');
    expect(await generateModule(ir)).toBe(await generateModule(irOf('fixtures/report.yaml')));
  });

  it('type-checks (strict) against the runtime', () => {
    const project = new Project({ tsConfigFilePath: 'tsconfig.json', skipAddingFilesFromTsConfig: true });
    const modules = fixtures.map((f) => project.addSourceFileAtPath(join('out', f.replace(/\.yaml$/, ''), f.replace(/\.yaml$/, '.ts'))));
    // The modules' own diagnostics (and the program's): the runtime they import is checked by
    // `npm run typecheck`; checking it again here would be most of this test's time.
    const program = project.getProgram();
    const diagnostics = [...program.getConfigFileParsingDiagnostics(), ...program.getGlobalDiagnostics(), ...modules.flatMap((m) => m.getPreEmitDiagnostics())];
    const problems = diagnostics.map((d) => project.formatDiagnosticsWithColorAndContext([d]));
    expect(problems).toEqual([]);
  }, 120_000);

  it('names each leaf after its config path; source lines live in one table', () => {
    const text = readFileSync('out/aggregation/aggregation.ts', 'utf8');
    expect(text).toContain('// customer_overview › Orders › http (in lines.customer_overview_Orders)\n');
    expect(text).toMatch(/function customer_overview_Orders_http\(s: rt\.Scope\): unknown/);
    expect(text).toMatch(/const lines = \{\n  customer_overview: \d+,\n/);
    expect(text).toContain('line: lines.customer_overview_Orders,');
  });

  it('says no more than it needs: no default-valued fields, no unused helpers, constants inline', () => {
    for (const f of fixtures) {
      const text = readFileSync(join('out', f.replace(/\.yaml$/, ''), f.replace(/\.yaml$/, '.ts')), 'utf8');
      expect(text).not.toMatch(/hide: \{\}|disableFastpath|features|showErrorDetail: false/);
      const helpers = /const \{ ([\w, ]+) \} = rt;/.exec(text)?.[1]?.split(', ') ?? [];
      for (const h of helpers) expect(text, `${f} uses ${h}`).toMatch(new RegExp(`\\b${h}\\.`));
      // A leaf that does not read the run is the value itself, not a named function returning it.
      expect(text).not.toMatch(/\(s: rt\.Scope\): unknown \{\n  return (?:"[^"\n]*"|-?\d[\d.]*|true|false|null);\n\}/);
    }
    expect(readFileSync('out/quickstart/quickstart.ts', 'utf8')).toContain('errorMessage: () => "an order needs at least one item"');
  });

  it('lets hostile strings in only as escaped literals', async () => {
    const text = readFileSync('out/hostile/hostile.ts', 'utf8');
    // Every occurrence of the payload sits inside a string literal or a comment.
    for (const line of text.split('\n')) {
      if (!line.includes('process.exit(1)')) continue;
      const code = line.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/\/\/.*$/, '');
      expect(code, line).not.toContain('process.exit');
    }
    expect(text).not.toMatch(/[\u2028\u2029]/);
    expect(text).toContain('["__proto__"]');
    // Loading the module runs nothing of the config's text and pollutes no prototype.
    const before = Object.keys(Object.prototype).length;
    await import('../../out/hostile/hostile.ts');
    expect(Object.keys(Object.prototype).length).toBe(before);
    expect((globalThis as { x?: unknown }).x).toBeUndefined();
  });
});

describe('diff locality', () => {
  const table = /\/\/ Lines in [^\n]*\nconst lines = \{\n[^}]*\};\n/;
  const entries = (text: string) => [...table.exec(text)![0].matchAll(/^  (\w+): (\d+),$/gm)].map((m) => [m[1], Number(m[2])] as const);

  it.each(fixtures)('%s: a comment line inserted at the top of the YAML changes only the position table', async (file) => {
    const path = join('fixtures', file);
    const text = readFileSync(path, 'utf8');
    const before = await generateModule(irOf(path, text));
    const after = await generateModule(irOf(path, `# one more line\n${text}`));
    expect(after).not.toBe(before);
    expect(after.replace(table, '')).toBe(before.replace(table, ''));
    // Same names in the same order, each line one further down.
    expect(entries(after)).toEqual(entries(before).map(([k, n]) => [k, n + 1]));
  });
});
