// Prints a config's problems as `file:line:col: message` with a code frame, errors and warnings alike.
import { formatDiagnostic, type Compiled } from '../compiler/index.ts';
import { color, err } from './output.ts';

export function printDiagnostics(c: Pick<Compiled, 'diagnostics' | 'text'>): void {
  for (const d of c.diagnostics) err(formatDiagnostic(d, c.text, { color }));
}
