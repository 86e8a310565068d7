// `pipewright init [dir]` end to end: the starter it writes passes `check` and `test` (both paths)
// with this project's CLI, run from inside the new folder as a user would; the editor modeline names
// the schema where the installed package has it; the CI workflow checks, tests, compiles and keeps
// the server; a second init never writes over the first.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const bin = resolve('bin/pipewright.mjs');
const demo = join(mkdtempSync(join(tmpdir(), 'pw-init-')), 'demo');
const cli = (args: string[], cwd = process.cwd()) => spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

describe('pipewright init', { timeout: 120_000 }, () => {
  it('writes a starter that passes check and test, on the fast path and the interpreter', () => {
    const r = cli(['init', demo]);
    expect(r.status, r.stderr).toBe(0);
    expect(cli(['check', 'api.yaml'], demo).stderr).toBe('ok api.yaml\n');
    for (const extra of [[], ['--no-fastpath']]) {
      const t = cli(['test', 'api.yaml', ...extra], demo);
      expect(t.stdout, t.stderr).toBe('1 passed, 0 failed\n');
      expect(t.status).toBe(0);
    }
  });

  it('points the editor at the schema the installed package ships', () => {
    const first = readFileSync(join(demo, 'api.yaml'), 'utf8').split('\n')[0]!;
    const exported = (JSON.parse(readFileSync('package.json', 'utf8')) as { exports: Record<string, string> }).exports['./schema.json']!;
    expect(first).toBe(`# yaml-language-server: $schema=./node_modules/pipewright/${exported.slice(2)}`);
    // That file is the built copy of the config schema (scripts/build-dist.mjs copies compiler/**/*.json).
    expect(exported).toBe('./dist/compiler/schema/config.schema.json');
    expect(statSync('compiler/schema/config.schema.json').isFile()).toBe(true);
  });

  it('writes a CI workflow that checks, tests, compiles and uploads the server, and ignores what builds make', () => {
    const wf = parse(readFileSync(join(demo, '.github/workflows/pipewright.yml'), 'utf8')) as { jobs: { build: { steps: Array<{ run?: string; uses?: string; with?: { path?: string } }> } } };
    const steps = wf.jobs.build.steps;
    const runs = steps.map((s) => s.run).filter(Boolean);
    expect(runs).toEqual(expect.arrayContaining(['npx pipewright check api.yaml', 'npx pipewright test api.yaml', 'npx pipewright compile api.yaml --out build']));
    expect(steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))?.with?.path).toBe('build/');
    expect(readFileSync(join(demo, '.gitignore'), 'utf8').split('\n')).toEqual(expect.arrayContaining(['node_modules/', 'build/']));
    const pkg = JSON.parse(readFileSync(join(demo, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    expect(pkg.devDependencies.pipewright).toMatch(/^\^\d+\.\d+\.\d+/);
  });

  it('refuses a folder that already has its files, writing nothing', () => {
    const before = readFileSync(join(demo, 'api.yaml'), 'utf8');
    const r = cli(['init', demo]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^nothing written: .*api\.yaml.* already exist/);
    expect(readFileSync(join(demo, 'api.yaml'), 'utf8')).toBe(before);
  });

  it('takes no option (one would be ignored): usage, exit 2, nothing written', () => {
    const other = join(demo, '..', 'other');
    const r = cli(['init', other, '--out', 'x']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^usage:/);
    expect(existsSync(other)).toBe(false);
  });
});
