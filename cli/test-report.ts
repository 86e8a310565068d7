// `pipewright test --reporter default|json|junit|tap`: the results of a test run in the forms CI
// systems read. `default` is the ✓/✗ lines on stderr and `N passed, N failed` on stdout; the others
// write their document to stdout and the summary line to stderr, so `> junit.xml` holds only XML.
// Rules: docs/decisions.md, "CI output".
import { hostname } from 'node:os';

export const REPORTERS = ['default', 'json', 'junit', 'tap'] as const;
export type Reporter = (typeof REPORTERS)[number];

/** One interface's test: its problems (none: passed) and how long it took. */
export interface TestResult {
  config: string;
  file: string;
  interface: string;
  /** A hermetic test case's name (`*.tests.yaml`); absent for the interface's own example and tests. */
  case?: string;
  problems: string[];
  ms: number;
}

export interface RunInfo {
  /** When the run started (JUnit's timestamp). */
  started: Date;
  /** JUnit's hostname (default: this machine's). */
  host?: string;
}

export const summaryLine = (r: readonly TestResult[]) => `${r.filter((t) => !t.problems.length).length} passed, ${r.filter((t) => t.problems.length).length} failed`;

export function formatTests(reporter: Exclude<Reporter, 'default'>, results: readonly TestResult[], info: RunInfo): string {
  if (reporter === 'json') return `${JSON.stringify(json(results), null, 2)}\n`;
  if (reporter === 'tap') return tap(results);
  return junit(results, info);
}

function json(results: readonly TestResult[]) {
  const failed = results.filter((t) => t.problems.length).length;
  return {
    passed: results.length - failed,
    failed,
    tests: results.map((t) => ({ config: t.config, file: t.file, interface: t.interface, ...(t.case === undefined ? {} : { case: t.case }), ok: !t.problems.length, problems: t.problems, duration_ms: Math.round(t.ms * 1000) / 1000 })),
  };
}

/** TAP version 14 (a plan, one line per test, the problems as a YAML block under a failure). */
function tap(results: readonly TestResult[]): string {
  const lines = ['TAP version 14', `1..${results.length}`];
  results.forEach((t, n) => {
    // "#" starts a directive in a test line and a newline would end it: both are escaped/replaced.
    const name = `${t.config}.${caseName(t)}`.replace(/\\/g, '\\\\').replace(/#/g, '\\#').replace(/[\r\n]+/g, ' ');
    lines.push(`${t.problems.length ? 'not ok' : 'ok'} ${n + 1} - ${name}`);
    if (t.problems.length) {
      lines.push('  ---', `  file: ${JSON.stringify(t.file)}`, '  problems:', ...t.problems.map((p) => `    - ${JSON.stringify(p)}`), '  ...');
    }
  });
  return `${lines.join('\n')}\n`;
}

/** JUnit XML in the Ant/Jenkins form (the windyroad JUnit.xsd the test validates against): a
 *  testsuite per config, a testcase per interface, a failure element per failed test. */
function junit(results: readonly TestResult[], info: RunInfo): string {
  const configs = [...new Set(results.map((t) => t.config))];
  const secs = (ms: number) => (ms / 1000).toFixed(3);
  const timestamp = info.started.toISOString().slice(0, 19);
  const host = info.host ?? (hostname() || 'localhost');
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', '<testsuites>'];
  configs.forEach((config, id) => {
    const tests = results.filter((t) => t.config === config);
    const failures = tests.filter((t) => t.problems.length).length;
    const time = tests.reduce((s, t) => s + t.ms, 0);
    out.push(`  <testsuite package=${attr(config)} id="${id}" name=${attr(config)} timestamp="${timestamp}" hostname=${attr(host)} tests="${tests.length}" failures="${failures}" errors="0" skipped="0" time="${secs(time)}">`);
    out.push('    <properties>', `      <property name="file" value=${attr(tests[0]!.file)}/>`, '    </properties>');
    for (const t of tests) {
      const head = `    <testcase name=${attr(caseName(t))} classname=${attr(config)} time="${secs(t.ms)}"`;
      if (!t.problems.length) { out.push(`${head}/>`); continue; }
      out.push(`${head}>`, `      <failure message=${attr(t.problems[0]!)} type="pipewright.test">${text(t.problems.join('\n'))}</failure>`, '    </testcase>');
    }
    out.push('    <system-out/>', '    <system-err/>', '  </testsuite>');
  });
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}

/** The interface, and the case's name after it when the result is a case's. */
const caseName = (t: TestResult) => (t.case === undefined ? t.interface : `${t.interface} › ${t.case}`);

// XML 1.0 cannot carry most control characters at all, even escaped: they are dropped.
// eslint-disable-next-line no-control-regex
const clean = (s: string) => s.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '').replace(/[\uD800-\uDFFF]/g, (c, i: number, all: string) => {
  const code = c.charCodeAt(0);
  const pair = code < 0xdc00 ? all.charCodeAt(i + 1) : all.charCodeAt(i - 1);
  return (code < 0xdc00 ? pair >= 0xdc00 && pair <= 0xdfff : pair >= 0xd800 && pair < 0xdc00) ? c : '';
});
const text = (s: string) => clean(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const attr = (s: string) => `"${text(s).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;')}"`;
