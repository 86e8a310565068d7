// Check-time validation of a jq program: jq's own compiler (the engine) decides; its first error and the
// position jq gives (`at <top-level>, line L, column C`) become a message and an offset in the program.
import { jqCompileError } from '../../runtime/jq/engine.ts';
import type { SourceError } from '../jsonpath/check.ts';

const AT = /^(?:jq: error: )?(.*?) at <top-level>, line (\d+)(?:, column (\d+))?:?$/m;

/** Null when `src` compiles. */
export function checkJq(src: string): SourceError | null {
  const e = jqCompileError(src);
  if (!e) return null;
  const m = AT.exec(e.message);
  if (!m) return { message: `jq: ${e.message.split('\n')[0]}`, offset: 0 };
  const lines = src.split('\n');
  const line = Math.min(Number(m[2]), lines.length);
  const col = m[3] ? Number(m[3]) - 1 : 0;
  const offset = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0) + Math.min(col, lines[line - 1].length);
  return { message: `jq: ${m[1]}`, offset };
}
