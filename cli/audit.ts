// `pipewright audit <config.yaml>... [--fail-on low|medium|high] [--format text|json]`: the security
// facts of the configs (loaded exactly as `check` loads them) and of this process's environment.
// Exit 0 when no finding is at or above --fail-on (default high), 1 otherwise, 2 when a config does
// not load (check's diagnostics on stderr, no findings).
import { auditConfigs, isSeverity, loadAndCompile, severityRank, type AuditInput, type Finding, type Severity } from '../compiler/index.ts';
import { printCrossFile, printDiagnostics } from './diagnostics.ts';
import { err, paint } from './output.ts';

export interface AuditOptions { 'fail-on'?: string; format?: string }

export function audit(files: string[], o: AuditOptions, env: Record<string, string | undefined> = process.env): number {
  const failOn = o['fail-on'] ?? 'high';
  const format = o.format ?? 'text';
  if (!isSeverity(failOn) || failOn === 'info') { err(`--fail-on must be low, medium or high, not ${JSON.stringify(failOn)}`); return 2; }
  if (format !== 'text' && format !== 'json') { err(`--format must be text or json, not ${JSON.stringify(format)}`); return 2; }
  const loaded = files.map((file) => loadAndCompile(file));
  let bad = 0;
  for (const { compiled } of loaded) {
    if (!compiled.ok) { printDiagnostics(compiled); bad++; }
  }
  bad += printCrossFile(loaded.map((l) => l.compiled));
  if (bad) { err(`audit: ${bad} config problem${bad === 1 ? '' : 's'} (see pipewright check); nothing audited`); return 2; }
  const inputs: AuditInput[] = loaded.map(({ loaded: l, compiled: c }) => ({ file: c.file, config: l.config, locate: l.locate, ir: c.ir! }));
  const findings = auditConfigs(inputs, env);
  const failing = findings.filter((f) => severityRank(f.severity) >= severityRank(failOn)).length;
  if (format === 'json') process.stdout.write(`${JSON.stringify(findings, null, 2)}\n`);
  else process.stdout.write(text(findings));
  err(`audit: ${summary(findings)}; ${failing} at or above ${failOn}${failing ? ' (exit 1)' : ''}`);
  return failing ? 1 : 0;
}

const SHOWN: Record<Severity, (s: string) => string> = { high: paint.red, medium: paint.yellow, low: paint.cyan, info: paint.dim };

/** One group per rule (highest severity first), one line per finding (where: what); the fix once
 *  under the group's heading when every finding of it shares one, else at the end of each line. */
function text(findings: Finding[]): string {
  const groups = new Map<string, Finding[]>();
  for (const f of findings) {
    const key = `${f.severity} ${f.id}`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  const blocks = [...groups.values()].map((group) => {
    const f0 = group[0]!;
    const shared = group.every((f) => f.fix === f0.fix);
    const head = `${SHOWN[f0.severity](f0.severity.toUpperCase())} ${f0.id} (${group.length})${shared ? ` — fix: ${f0.fix}` : ''}\n`;
    return head + group.map((f) => {
      const where = f.file ? `${f.file}${f.line ? `:${f.line}:${f.col}` : ''}: ` : '';
      return `  ${where}${f.message}${shared ? '' : ` — fix: ${f.fix}`}\n`;
    }).join('');
  });
  return blocks.join('\n');
}

function summary(findings: Finding[]): string {
  const count = (s: Severity) => findings.filter((f) => f.severity === s).length;
  return `${count('high')} high, ${count('medium')} medium, ${count('low')} low, ${count('info')} info`;
}
