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

// A stream that never ends whatever the input (`range(infinite)`, `repeat(f)`, `while(true; f)`,
// `until(false; f)`), with nothing in the program that stops early (`limit`, `first`, a label's break,
// `isempty`/`any`/`all`/`nth`): it would always run into the time bound (runtime/jq/bounds.ts).
const ENDLESS = /\brange\s*\(\s*(?:[^;()]*;\s*)?infinite\s*\)|(?<![.$\w])repeat\s*\(|(?<![.$\w])while\s*\(\s*true\s*;|(?<![.$\w])until\s*\(\s*false\s*;/;
const STOPS = /(?<![.$\w])(?:limit|first|isempty|any|all|nth|label)\b/;

/** The endless stream of `src`, when it has one and nothing can stop it; null otherwise. */
export function endlessJq(src: string): SourceError | null {
  const m = ENDLESS.exec(src);
  if (!m || STOPS.test(src)) return null;
  return { message: `jq: \`${m[0].replace(/\s+/g, ' ')}\` never ends and nothing in the program stops it (limit, first, a label's break): every run would fail at its time bound (SERVICE__JQ_TIMEOUT_MS)`, offset: m.index };
}
