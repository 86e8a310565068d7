// The import graph of runtime/, compiler/ and cli/: no cycle between folders, and every import
// allowed by the layer rules (./layers.ts).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cycles, fileGraph, folderGraph, folderOf, reachable, type Graph } from './graph.ts';
import { allowed, COMPILER_USES_RUNTIME, KNOWN_CYCLES } from './layers.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const files = fileGraph(root, ['runtime', 'compiler', 'cli']);
const graph = (edges: Record<string, string[]>): Graph => new Map(Object.entries(edges).map(([k, v]) => [k, new Set(v)]));

describe('import graph', () => {
  it('resolves every relative import of a .ts file', () => {
    const missing = [...files].flatMap(([from, to]) => [...to].filter((t) => t.endsWith('.ts') && !files.has(t)).map((t) => `${from} -> ${t}`));
    expect(missing).toEqual([]);
  });

  it('has no cycle between folders (but the known ones, which may only go away)', () => {
    expect(cycles(folderGraph(files))).toEqual(KNOWN_CYCLES);
  });

  it('keeps the layer rules', () => {
    const broken = [...files].flatMap(([from, to]) => [...to].filter((t) => !allowed(folderOf, from, t)).map((t) => `${from} -> ${t}`));
    expect(broken).toEqual([]);
  });

  it('the runtime never imports the compiler or the command line', () => {
    const up = [...files].filter(([f]) => f.startsWith('runtime/')).flatMap(([from, to]) => [...to].filter((t) => !t.startsWith('runtime/')).map((t) => `${from} -> ${t}`));
    expect(up).toEqual([]);
  });

  it("serve's process loads no compiler: the configs are compiled in another (cli/serve-build.ts)", () => {
    expect([...reachable(files, 'cli/serve.ts')].filter((f) => f.startsWith('compiler/') || f === 'cli/serve-build.ts')).toEqual([]);
  });

  it('the commands that only read configs (check, compile, audit, diff, serve-build) load no server, store or action kinds', () => {
    // Each of these would bring every kind's client (undici, pg, ssh2, mqtt, nodemailer...) into a
    // command that runs none of them: `check` of the quickstart took 0.55 s instead of 0.2 through the
    // runtime's entry (docs/benchmarks.md, start-up and CLI).
    const heavy = ['runtime/index.ts', 'runtime/server/app.ts', 'runtime/actions/index.ts', 'runtime/store/index.ts'];
    const cmds = ['cli/check.ts', 'cli/compile.ts', 'cli/audit.ts', 'cli/diff.ts', 'cli/serve-build.ts'];
    expect(cmds.flatMap((c) => heavy.filter((h) => reachable(files, c).has(h)).map((h) => `${c} -> ${h}`))).toEqual([]);
  });

  it('the test stand-ins (runtime/testing) are reachable from `pipewright test` alone: not from serve, run, the runtime entry or the server', () => {
    const from = ['cli/serve.ts', 'cli/run.ts', 'runtime/index.ts', 'runtime/server/app.ts'];
    expect(from.flatMap((f) => [...reachable(files, f)].filter((r) => r.startsWith('runtime/testing/')).map((r) => `${f} -> ${r}`))).toEqual([]);
    expect([...reachable(files, 'cli/test-cmd.ts')].some((r) => r.startsWith('runtime/testing/'))).toBe(true);
  });

  it("the runtime files the compiler uses load no engine, server or registry", () => {
    const heavy = /^runtime\/(index\.ts|server\/|exec\/|interpret\/|store\/|actions\/index\.ts|transforms\/index\.ts)/;
    const pulled = COMPILER_USES_RUNTIME.flatMap((f) => [...reachable(files, f)].filter((r) => heavy.test(r)).map((r) => `${f} -> ${r}`));
    expect(pulled).toEqual([]);
  });

  it("docs/architecture.md's layout names exactly the runtime files the compiler may use", () => {
    const readme = readFileSync(`${root}docs/architecture.md`, 'utf8');
    const at = readme.indexOf('The compiler uses the runtime only through light files');
    const listed = readme.slice(at, readme.indexOf('\n\n', at)).match(/`runtime\/[^`]+`/g)?.map((s) => s.slice(1, -1)) ?? [];
    expect([...listed].sort()).toEqual([...COMPILER_USES_RUNTIME].sort());
  });
});

describe('the checks themselves', () => {
  it('find a cycle through three folders, and none in a layered graph', () => {
    expect(cycles(graph({ a: ['b'], b: ['c'], c: ['a'], d: ['a'] }))).toEqual([['a', 'b', 'c']]);
    expect(cycles(graph({ a: ['b', 'c'], b: ['c'], c: [] }))).toEqual([]);
  });

  it('find a newly introduced folder cycle in the real graph', () => {
    const grown = new Map(files);
    grown.set('compiler/source/oops.ts', new Set(['compiler/load/index.ts']));
    const found = cycles(folderGraph(grown)).filter((c) => c.includes('compiler/source'));
    expect(found).toEqual([['compiler/load', 'compiler/schema', 'compiler/source']]);
  });

  it('refuse an import that breaks a layer rule', () => {
    expect(allowed(folderOf, 'runtime/exec/run.ts', 'compiler/lower/action.ts')).toBe(false);
    expect(allowed(folderOf, 'cli/run.ts', 'runtime/exec/run.ts')).toBe(false);
    expect(allowed(folderOf, 'cli/run.ts', 'runtime/index.ts')).toBe(true);
    expect(allowed(folderOf, 'compiler/lower/transforms.ts', 'runtime/transforms/index.ts')).toBe(false);
    expect(allowed(folderOf, 'compiler/lower/transforms.ts', 'runtime/transforms/specs.ts')).toBe(true);
    expect(allowed(folderOf, 'runtime/values/text.ts', 'runtime/asserts/run-test.ts')).toBe(false);
    expect(allowed(folderOf, 'runtime/exec/run.ts', 'runtime/interpret/plan.ts')).toBe(false);
    expect(allowed(folderOf, 'runtime/transforms/math.ts', 'runtime/exec/run.ts')).toBe(false);
    expect(allowed(folderOf, 'runtime/server/app.ts', 'runtime/exec/run.ts')).toBe(true);
    expect(allowed(folderOf, 'runtime/server/app.ts', 'runtime/index.ts')).toBe(false);
  });

  it('place files in folders', () => {
    expect(['runtime/ir.ts', 'runtime/index.ts', 'runtime/actions/http/plan.ts', 'cli/main.ts'].map(folderOf)).toEqual(['runtime', 'runtime/index.ts', 'runtime/actions', 'cli']);
  });
});
