// `pipewright test --reporter json|junit|tap`: the run's results as CI systems read them. JUnit XML
// is validated against the Ant/Jenkins JUnit XSD (windyroad JUnit.xsd, vendored in
// test/support/schemas/) by libxml2's own validator (xmllint-wasm: no native build, runs on Node 20).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { runTests } from '../support/test-cli.ts';
import { formatTests, type TestResult } from '../../cli/test-report.ts';

const dir = mkdtempSync(join(tmpdir(), 'pw-reporters-'));
const failing = join(dir, 'contract.yaml');
// Fails twice: the body lacks a required field, and a test expects another n.
writeFileSync(failing, `interfaces:
  echo:
    method: POST
    accepts: { example: { n: 2, note: "<&\\"'>" } }
    produces: { schema: { type: object, required: [n, doubled] } }
    tests: [{ jq: .n, is_equal_to: 3 }]
    actions: [{ name: Out, input: a|body|, output: http }]
`);
// The quickstart without its cases file (fixtures/quickstart.tests.yaml): its two example checks only.
const quickstart = join(dir, 'quickstart.yaml');
writeFileSync(quickstart, readFileSync('fixtures/quickstart.yaml', 'utf8'));
const untested = join(dir, 'untested.yaml');
writeFileSync(untested, `interfaces:
  plain:
    method: GET
    actions: [{ name: A, input: { a: 1 }, output: http }]
`);

afterEach(() => vi.restoreAllMocks());

const xsd = readFileSync('test/support/schemas/junit.xsd', 'utf8');
const validJunit = async (xml: string) => validateXML({ xml: [{ fileName: 'report.xml', contents: xml }], schema: [{ fileName: 'junit.xsd', contents: xsd }] });

describe('test reporters', () => {
  it('junit: valid against the JUnit XSD, a suite per config, a failure per failed test; the summary line on stderr', async () => {
    const r = await runTests([quickstart, failing], { reporter: 'junit', 'no-fastpath': true });
    expect(r.code).toBe(1);
    const v = await validJunit(r.out);
    expect(v.errors).toEqual([]);
    expect(v.valid).toBe(true);
    expect(r.err).toContain('2 passed, 1 failed');
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(r.out);
    const [quick, contract] = doc.testsuites.testsuite;
    expect(quick).toMatchObject({ name: 'quickstart', tests: '2', failures: '0' });
    expect(contract).toMatchObject({ name: 'contract', tests: '1', failures: '1' });
    expect(contract.testcase.failure.message).toContain("must have required property 'doubled'");
    expect(contract.testcase.failure['#text']).toContain('expected 2');
    // Not vacuous: the XSD refuses a suite without its required attributes.
    expect((await validJunit(r.out.replace(/ hostname="[^"]*"/, ''))).valid).toBe(false);
  }, 60_000);

  it('tap: a TAP 14 stream with a plan, ok / not ok lines and the problems as YAML', async () => {
    const r = await runTests([quickstart, failing], { reporter: 'tap', 'no-fastpath': true });
    const lines = r.out.trimEnd().split('\n');
    expect(lines.slice(0, 2)).toEqual(['TAP version 14', '1..3']);
    expect(lines.filter((l) => /^(not )?ok \d+ - /.test(l)).map((l) => l.split(' - ')[0])).toEqual(['ok 1', 'ok 2', 'not ok 3']);
    const yaml = lines.slice(lines.indexOf('  ---'), lines.indexOf('  ...') + 1);
    expect(yaml.join('\n')).toContain('doubled');
  }, 60_000);

  it('json: per test its config, interface, verdict and problems', async () => {
    const r = await runTests([failing], { reporter: 'json', 'no-fastpath': true });
    const j = JSON.parse(r.out);
    expect(j).toMatchObject({ passed: 0, failed: 1, tests: [{ config: 'contract', file: failing, interface: 'echo', ok: false }] });
    expect(j.tests[0].problems).toHaveLength(2);
  }, 60_000);

  it('default keeps the plain summary line on stdout; a run that tests nothing warns and fails unless --pass-with-no-tests', async () => {
    const none = await runTests([untested], { 'no-fastpath': true });
    expect(none.out).toBe('0 passed, 0 failed\n');
    expect(none.err).toContain(`${untested}: no interface has accepts.example, produces, tests or a test case`);
    expect(none.code).toBe(1);
    expect((await runTests([untested], { 'no-fastpath': true, 'pass-with-no-tests': true })).code).toBe(0);
    // A config without tests beside one with tests: a warning, and the run's own verdict.
    const mixed = await runTests([quickstart, untested], { 'no-fastpath': true });
    expect(mixed).toMatchObject({ code: 0, out: '2 passed, 0 failed\n' });
    expect(mixed.err).toContain('untested.yaml: no interface has');
    expect((await runTests([untested], { reporter: 'xml' })).code).toBe(2);
  }, 60_000);

  it('escapes what XML and TAP cannot carry as is', async () => {
    const hostile: TestResult[] = [{ config: 'c', file: 'f "x".yaml', interface: 'a#b\nc', problems: ['bad \u0001 <x> & "q" \ud800 \ud83d\ude00'], ms: 1.5 }];
    const xml = formatTests('junit', hostile, { started: new Date(0), host: 'h' });
    expect((await validJunit(xml)).valid).toBe(true);
    expect(xml).toContain('bad  &lt;x&gt; &amp; &quot;q&quot;  \ud83d\ude00');
    expect(formatTests('tap', hostile, { started: new Date(0) })).toContain('not ok 1 - c.a\\#b c\n');
  });
});
