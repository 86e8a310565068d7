// `pipewright check --format json|sarif|github`: the same diagnostics the text format prints, in
// the forms CI systems read. JSON for scripts, SARIF 2.1.0 for code scanning (GitHub, GitLab, Azure
// DevOps), GitHub workflow commands for pull-request annotations. Rules: docs/decisions.md, "CI output".
import { relative, sep } from 'node:path';
import type { Compiled, Diagnostic } from '../compiler/index.ts';
import { annotation } from './github-annotations.ts';

export const CHECK_FORMATS = ['text', 'json', 'sarif', 'github'] as const;
export type CheckFormat = (typeof CHECK_FORMATS)[number];

/** What one `check` found: each config's verdict and every diagnostic with the rule it breaks. */
export interface CheckReport {
  configs: Array<{ file: string; ok: boolean; errors: number; warnings: number }>;
  diagnostics: Array<Diagnostic & { rule: RuleId }>;
}

// Diagnostics carry no codes of their own; a rule per kind lets code scanning group them.
const RULES = {
  'config-error': 'The config is not valid: it does not load, compile or pass a lint that refuses it.',
  'config-warning': 'The config loads, but something in it is likely a mistake or will be refused where it runs.',
  'route-conflict': 'Two configs served together answer the same method and route.',
} as const;
type RuleId = keyof typeof RULES;

export function checkReport(all: readonly Compiled[], crossFile: readonly Diagnostic[]): CheckReport {
  const diagnostics: CheckReport['diagnostics'] = [];
  for (const c of all) for (const d of c.diagnostics) diagnostics.push({ ...d, rule: d.severity === 'error' ? 'config-error' : 'config-warning' });
  for (const d of crossFile) diagnostics.push({ ...d, rule: 'route-conflict' });
  const configs = all.map((c) => {
    const own = diagnostics.filter((d) => d.file === c.file);
    const errors = own.filter((d) => d.severity === 'error').length;
    return { file: c.file, ok: c.ok && errors === 0, errors, warnings: own.length - errors };
  });
  return { configs, diagnostics };
}

const message = (d: Diagnostic) => (d.hint ? `${d.message}\nhint: ${d.hint}` : d.message);

export function formatCheck(format: Exclude<CheckFormat, 'text'>, r: CheckReport, cwd = process.cwd()): string {
  if (format === 'json') {
    const diagnostics = r.diagnostics.map(({ file, line, col, severity, rule, message: m, hint }) => ({ file, line, col, severity, rule, message: m, ...(hint ? { hint } : {}) }));
    return `${JSON.stringify({ ok: r.configs.every((c) => c.ok), configs: r.configs, diagnostics }, null, 2)}\n`;
  }
  if (format === 'github') {
    return r.diagnostics.map((d) => `${annotation(d.severity, { file: d.file, line: d.line, col: d.col, title: `pipewright check: ${d.rule}` }, message(d))}\n`).join('');
  }
  return `${JSON.stringify(sarif(r, cwd), null, 2)}\n`;
}

/** A SARIF 2.1.0 log with one run; file locations relative to the working directory (%SRCROOT%). */
function sarif(r: CheckReport, cwd: string): unknown {
  const ids = Object.keys(RULES) as RuleId[];
  const uri = (file: string) => relative(cwd, file).split(sep).map(encodeURIComponent).join('/');
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{
      tool: { driver: { name: 'pipewright', informationUri: 'https://www.npmjs.com/package/pipewright', rules: ids.map((id) => ({ id, shortDescription: { text: RULES[id] } })) } },
      // Columns are counted in UTF-16 code units, as the YAML parser gives them.
      columnKind: 'utf16CodeUnits',
      originalUriBaseIds: { '%SRCROOT%': { uri: `${cwdUri(cwd)}/` } },
      artifacts: r.configs.map((c) => ({ location: { uri: uri(c.file), uriBaseId: '%SRCROOT%' } })),
      results: r.diagnostics.map((d) => ({
        ruleId: d.rule,
        ruleIndex: ids.indexOf(d.rule),
        level: d.severity,
        message: { text: message(d) },
        locations: [{ physicalLocation: { artifactLocation: { uri: uri(d.file), uriBaseId: '%SRCROOT%' }, region: { startLine: Math.max(1, d.line), startColumn: Math.max(1, d.col) } } }],
      })),
    }],
  };
}

const cwdUri = (cwd: string) => `file://${cwd.split(sep).map(encodeURIComponent).join('/').replace(/^(?!\/)/, '/')}`;
