// `pipewright check <config.yaml>... [--format text|json|sarif|github]`: exit 0 when every config is
// valid, else 1 (2 for an unknown format). Text goes to stderr as before; the other formats write
// their document to stdout (cli/check-report.ts), so `check --format sarif > check.sarif` works.
import { compileConfig, crossFileRouteConflicts, type Compiled } from '../compiler/index.ts';
import { processEnvironment } from '../runtime/environment.ts';
import { needPlace, settingOf, unsetNeeds } from '../runtime/server/needs.ts';
import { CHECK_FORMATS, checkReport, formatCheck, type CheckFormat } from './check-report.ts';
import { printCrossFile, printDiagnostics } from './diagnostics.ts';
import { err, paint } from './output.ts';

export function check(files: string[], o: { format?: string } = {}): number {
  const format = (o.format ?? 'text') as CheckFormat;
  if (!CHECK_FORMATS.includes(format)) { err(`--format must be one of ${CHECK_FORMATS.join(', ')}; got ${o.format}`); return 2; }
  const all = files.map((file) => compileConfig(file));
  for (const c of all) warnUnset(c);
  if (format !== 'text') {
    const report = checkReport(all, crossFileRouteConflicts(all));
    process.stdout.write(formatCheck(format, report));
    return report.configs.every((c) => c.ok) && !report.diagnostics.some((d) => d.rule === 'route-conflict') ? 0 : 1;
  }
  let bad = 0;
  for (const c of all) {
    printDiagnostics(c);
    if (!c.ok) bad++;
    else err(`${paint.green('ok')} ${c.file}${c.diagnostics.length ? ` (${c.diagnostics.length} warning${c.diagnostics.length === 1 ? '' : 's'})` : ''}`);
  }
  bad += printCrossFile(all);
  return bad ? 1 : 0;
}
/** A secret, variable or environment value the config reads with no fallback and that is not set
 *  where `check` runs: a warning (CI rarely holds production secrets), since `serve` refuses it. */
function warnUnset(c: Compiled): void {
  if (!c.ok || !c.ir) return;
  const lines = c.text.split('\n');
  for (const n of unsetNeeds(c.ir, processEnvironment())) {
    // The marker's own position: its first occurrence from the line of the action that reads it.
    const marker = `a|${n.root}::${n.name}`;
    const from = needPlace(c.ir, n).line;
    let line = lines.findIndex((l, i) => i >= from - 1 && l.includes(marker)) + 1;
    if (line === 0) line = from;
    const text = lines[line - 1] ?? '';
    const col = text.includes(marker) ? text.indexOf(marker) + 1 : text.length - text.trimStart().length + 1;
    c.diagnostics.push({
      file: c.file, line, col, severity: 'warning',
      message: `a|${n.root}::${n.name}| is not set here (${settingOf(n)}): serve refuses to start without it`,
      hint: 'set it where the server runs, add ->default(...) to the marker, or start with SERVICE__ALLOW_MISSING_VALUES=1',
    });
  }
}
