// A diagnostic is one problem found while loading a config, tied to a place in its YAML source.
import { codeFrame } from './code-frame.ts';
import { palette } from './palette.ts';

export interface Diagnostic {
  file: string;
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  col: number;
  severity: 'error' | 'warning';
  message: string;
  hint?: string;
  /** Path of the offending node in the config value (keys and array indexes). */
  path?: Array<string | number>;
}

/** `file:line:col: error: message`, a code frame around the line, then `hint: ...` when set. */
export function formatDiagnostic(d: Diagnostic, sourceText: string, opts: { color: boolean } = { color: false }): string {
  const c = palette(opts.color);
  const sev = d.severity === 'error' ? c.red(c.bold('error')) : c.yellow(c.bold('warning'));
  // Line 0: about the file as a whole (it does not exist, it is a directory).
  const lines = [`${c.bold(d.line ? `${d.file}:${d.line}:${d.col}` : d.file)}: ${sev}: ${c.bold(d.message)}`];
  const frame = codeFrame(sourceText, d.line, d.col, c);
  if (frame) lines.push(frame);
  if (d.hint) lines.push(`${c.cyan('hint')}: ${d.hint}`);
  return lines.join('\n');
}

/** Ordered by position: people read a config top to bottom. */
export function sortDiagnostics(ds: Diagnostic[]): Diagnostic[] {
  return [...ds].sort((a, b) => a.line - b.line || a.col - b.col); // stable: same place keeps report order
}

/** Drop diagnostics saying the same thing at the same place. */
export function dedupeDiagnostics(ds: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return ds.filter((d) => {
    const k = `${d.line}:${d.col}:${d.severity}:${d.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

export const hasErrors = (ds: Diagnostic[]): boolean => ds.some((d) => d.severity === 'error');
