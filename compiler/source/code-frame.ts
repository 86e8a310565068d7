// The source lines around a position, numbered, with a caret under the column.
import type { Palette } from './palette.ts';

const CONTEXT = 2;

export function codeFrame(text: string, line: number, col: number, c: Palette): string | undefined {
  const lines = text.split(/\r?\n/);
  if (line < 1 || line > lines.length) return undefined;
  const first = Math.max(1, line - CONTEXT);
  const last = Math.min(lines.length, line + CONTEXT);
  const width = String(last).length;
  const out: string[] = [];
  for (let n = first; n <= last; n++) {
    const src = lines[n - 1];
    const marker = n === line ? c.red('>') : ' ';
    out.push(`${marker} ${c.dim(`${String(n).padStart(width)} |`)}${src ? ' ' + src : ''}`);
    if (n === line) {
      // Keep tabs so the caret lines up with the text above it.
      const pad = src.slice(0, Math.max(0, col - 1)).replace(/[^\t]/g, ' ');
      out.push(`  ${c.dim(`${' '.repeat(width)} |`)} ${pad}${c.red('^')}`);
    }
  }
  return out.join('\n');
}
