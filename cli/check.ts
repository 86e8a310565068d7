// `pipewright check <config.yaml>...`: exit 0 when every config is valid (warnings on stderr), else 1.
import { compileConfig } from '../compiler/index.ts';
import { printDiagnostics } from './diagnostics.ts';
import { err, paint } from './output.ts';

export function check(files: string[]): number {
  let bad = 0;
  for (const file of files) {
    const c = compileConfig(file);
    printDiagnostics(c);
    if (!c.ok) bad++;
    else err(`${paint.green('ok')} ${file}${c.diagnostics.length ? ` (${c.diagnostics.length} warning${c.diagnostics.length === 1 ? '' : 's'})` : ''}`);
  }
  return bad ? 1 : 0;
}
