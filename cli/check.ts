// `pipewright check <config.yaml>...`: exit 0 when every config is valid (warnings on stderr), else 1.
import { compileConfig } from '../compiler/index.ts';
import { printCrossFile, printDiagnostics } from './diagnostics.ts';
import { err, paint } from './output.ts';

export function check(files: string[]): number {
  let bad = 0;
  const all = files.map((file) => compileConfig(file));
  for (const c of all) {
    printDiagnostics(c);
    if (!c.ok) bad++;
    else err(`${paint.green('ok')} ${c.file}${c.diagnostics.length ? ` (${c.diagnostics.length} warning${c.diagnostics.length === 1 ? '' : 's'})` : ''}`);
  }
  bad += printCrossFile(all);
  return bad ? 1 : 0;
}
