// Prints a config's problems as `file:line:col: message` with a code frame, errors and warnings alike.
import { crossFileRouteConflicts, formatDiagnostic, type Compiled } from '../compiler/index.ts';
import { color, err } from './output.ts';

/** Problems between configs served together; returns how many there were. */
export function printCrossFile(all: Compiled[]): number {
  const found = crossFileRouteConflicts(all);
  for (const d of found) err(formatDiagnostic(d, all.find((c) => c.file === d.file)?.text ?? '', { color }));
  return found.length;
}

export function printDiagnostics(c: Pick<Compiled, 'diagnostics' | 'text'>): void {
  for (const d of c.diagnostics) err(formatDiagnostic(d, c.text, { color }));
}
