// `pipewright check --format json|sarif|github`: the diagnostics the text format prints, as the
// documents CI systems read. SARIF is validated against the OASIS SARIF 2.1.0 JSON Schema, vendored
// in test/support/schemas/ (draft-04, so ajv-draft-04), with no network at test time.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Ajv04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { describe, expect, it, vi } from 'vitest';
import { compileConfig, crossFileRouteConflicts } from '../../compiler/index.ts';
import { checkReport, formatCheck } from '../../cli/check-report.ts';
import { annotation } from '../../cli/github-annotations.ts';

const dir = mkdtempSync(join(tmpdir(), 'pw-check-'));
const write = (name: string, text: string) => { const f = join(dir, name); writeFileSync(f, text); return f; };
// Two errors (a typo'd field, an unknown action kind) and a warning (a route that shadows /mqtt).
const bad = write('bad, file.yaml', `interfaces:
  broken:
    method: POST
    actionz: []
  other:
    actions:
      - name: A
        frobnicate: 1
`);
const warned = write('warned.yaml', `interfaces:
  hello:
    method: GET
    route: /mqtt
    actions:
      - name: Echo
        input: { a: 1 }
        output: http
`);
const clash = write('clash.yaml', `interfaces:
  hello:
    method: GET
    route: /mqtt
    actions: [{ name: A, input: { a: 1 }, output: http }]
`);
const all = [bad, warned, clash].map((f) => compileConfig(f));
const report = checkReport(all, crossFileRouteConflicts(all));

function sarifValidator() {
  // A CommonJS default export: Node hands the module object, whose `default` is the class.
  const Ajv = (Ajv04 as unknown as { default: typeof Ajv04 }).default;
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats.default(ajv);
  return ajv.compile(JSON.parse(readFileSync('test/support/schemas/sarif-schema-2.1.0.json', 'utf8')));
}

describe('check formats', () => {
  it('finds what the text format finds: errors, warnings and route conflicts, each with file:line:col', () => {
    // The route conflict counts against the config that repeats the route.
    expect(report.configs.map((c) => [c.file, c.ok])).toEqual([[bad, false], [warned, true], [clash, false]]);
    const rules = report.diagnostics.map((d) => d.rule);
    expect(rules).toContain('config-error');
    expect(rules).toContain('config-warning');
    expect(rules).toContain('route-conflict');
    for (const d of report.diagnostics) expect(d.line).toBeGreaterThan(0);
  });

  it('sarif: a SARIF 2.1.0 log valid against the OASIS schema, one result per diagnostic', () => {
    const log = JSON.parse(formatCheck('sarif', report, dir));
    const validate = sarifValidator();
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    const results = log.runs[0].results;
    expect(results).toHaveLength(report.diagnostics.length);
    const first = results.find((r: any) => r.ruleId === 'config-error');
    expect(first.level).toBe('error');
    expect(first.locations[0].physicalLocation.artifactLocation).toEqual({ uri: 'bad%2C%20file.yaml', uriBaseId: '%SRCROOT%' });
    expect(first.locations[0].physicalLocation.region.startLine).toBe(4);
    expect(log.runs[0].tool.driver.rules[first.ruleIndex].id).toBe('config-error');
    // The validator is not vacuous: a log without a version, or a result with a bad level, is refused.
    expect(validate({ ...log, version: undefined })).toBe(false);
    expect(validate({ ...log, runs: [{ ...log.runs[0], results: [{ ...first, level: 'fatal' }] }] })).toBe(false);
  });

  it('json: configs and diagnostics for scripts', () => {
    const j = JSON.parse(formatCheck('json', report));
    expect(j.ok).toBe(false);
    expect(j.configs[0]).toEqual({ file: bad, ok: false, errors: expect.any(Number), warnings: 0 });
    expect(j.diagnostics[0]).toMatchObject({ file: bad, line: 4, severity: 'error', rule: 'config-error' });
  });

  it('github: one workflow command per diagnostic, with file, line and col, properly escaped', () => {
    const lines = formatCheck('github', report).trimEnd().split('\n');
    expect(lines).toHaveLength(report.diagnostics.length);
    expect(lines[0]).toMatch(/^::error file=.*bad%2C file\.yaml,line=4,col=\d+,title=pipewright check%3A config-error::\S/);
    expect(lines.some((l) => l.startsWith('::warning file='))).toBe(true);
    for (const l of lines) expect(l).not.toContain('\n');
    expect(annotation('error', { file: 'a:b,c.yaml', line: 2, col: 3 }, '50% done\nhint: x')).toBe('::error file=a%3Ab%2Cc.yaml,line=2,col=3::50%25 done%0Ahint: x');
  });

  it('the command writes the format to stdout and exits 1 on errors, 0 with warnings only, 2 on an unknown format', async () => {
    const { check } = await import('../../cli/check.ts');
    const out: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((s) => { out.push(String(s)); return true; });
    try {
      expect(check([warned], { format: 'github' })).toBe(0);
      expect(check([warned], { format: 'xml' })).toBe(2);
    } finally { spy.mockRestore(); }
    expect(out.join('')).toMatch(/^::warning file=.*warned\.yaml,line=4,col=\d+,/);
    // One real process, as CI runs it: the document on stdout, nothing else there.
    const sarif = spawnSync(process.execPath, [resolve('bin/pipewright.mjs'), 'check', '--format', 'sarif', 'bad, file.yaml', 'warned.yaml'], { encoding: 'utf8', cwd: dir, env: { ...process.env, NO_COLOR: '1' } });
    expect(sarif.status).toBe(1);
    const v = sarifValidator();
    expect(v(JSON.parse(sarif.stdout)), JSON.stringify(v.errors)).toBe(true);
  }, 60_000);
});
