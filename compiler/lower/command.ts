// A `command` action → its kind config. The command line is split into words HERE, from the config's
// own text, before any value is known: a marker's value becomes (part of) one argument and is never
// re-split or read by a shell. With `shell`, the line is a script and each marker becomes a positional
// parameter ("${1}", "${2}", ...) whose value travels as a separate argument to the shell.
import type { Node, Ref } from '../../runtime/ir.ts';
import { parseMarkers, type Part } from '../markers/parse.ts';
import { LowerError, type Path } from './error.ts';
import { onlyTrustedMarkers } from './trusted.ts';
import { splitWords as split, WordError } from '../markers/words.ts';
import { lowerValue } from './values.ts';

type Obj = Record<string, unknown>;

/** Why the program word and `cwd` hold configuration values only. */
const CONFIG_ONLY = (what: string) => `name the ${what} in the config (a|var::NAME| or a|env::NAME| may supply it); request values can only be arguments`;
/** The action timeout of a command without one (./action.ts): a command never runs unbounded, and its
 *  one deadline is the executor's, whose abort kills the process group (runtime/actions/command). */
export const COMMAND_DEFAULT_TIMEOUT_MS = 60_000;

export function commandConfig(a: Obj, at: Path): Node {
  const c = (a.command ?? {}) as Obj;
  const where = [...at, 'command', 'run'];
  if (typeof c.run !== 'string' || !c.run.trim()) throw new LowerError('command.run must be a non-empty command line', where);
  const cfg: Obj = {};
  const parts = parseMarkers(c.run);
  // argv words and shell parameters are lowered here (markers parsed once, from the run text).
  const lowered: Array<[string, Node]> = [];
  if (c.shell !== undefined && c.shell !== false) {
    if (typeof c.shell === 'string' && (!c.shell.trim() || c.shell.includes('a|'))) throw new LowerError('command.shell must be true or the path of a shell (no markers)', [...at, 'command', 'shell']);
    const { script, params } = shellScript(parts, where);
    Object.assign(cfg, { shell: c.shell === true ? '/bin/sh' : c.shell, script });
    lowered.push(['params', { k: 'arr', items: params.map((ref): Node => ({ k: 'ref', ref })) }]);
  } else {
    const words = splitWords(parts, where);
    onlyTrustedMarkers(words[0]!, where, 'cannot choose the program to run', CONFIG_ONLY('program'));
    lowered.push(['argv', { k: 'arr', items: words.map(wordNode) }]);
  }
  if (c.env !== undefined) cfg.env = c.env;
  if (c.cwd !== undefined) cfg.cwd = trustedCwd(c.cwd, [...at, 'command', 'cwd']);
  if (a.output_stdout !== undefined) cfg.output_stdout = a.output_stdout;
  if (a.expect_exit !== undefined) cfg.expect_exit = a.expect_exit;
  return { k: 'obj', props: [...Object.entries(cfg).map(([k, v]): [string, Node] => [k, lowerValue(v)]), ...lowered] };
}

/** The working directory decides which files a relative program and path reach, so like the program
 *  it comes from the config: literal text and var/ap_var/env markers only. */
function trustedCwd(cwd: unknown, at: Path): unknown {
  if (typeof cwd === 'string') onlyTrustedMarkers(parseMarkers(cwd), at, 'cannot choose the working directory', CONFIG_ONLY('directory'));
  return cwd;
}

/** A word of literal text and markers → one string (a lone marker keeps its value, made text at run time). */
function wordNode(word: Part[]): Node {
  if (word.length === 0) return { k: 'lit', v: '' }; // "" or ''
  if (word.length === 1 && typeof word[0] === 'string') return { k: 'lit', v: word[0] };
  if (word.length === 1) return { k: 'ref', ref: word[0] as Ref };
  return { k: 'tmpl', parts: word };
}

/** The script text with each marker replaced by its positional parameter, quoted so its value is one word. */
export function shellScript(parts: Part[], at: Path): { script: string; params: Ref[] } {
  let script = '';
  const params: Ref[] = [];
  let quote: '' | "'" | '"' = '';
  for (const part of parts) {
    if (typeof part !== 'string') {
      if (quote === "'") throw new LowerError(`${part.src} is inside single quotes, where the shell cannot expand its parameter`, at, 'close the single quotes around the marker; its value is passed as one positional parameter, never pasted');
      params.push(part);
      script += quote === '"' ? `\${${params.length}}` : `"\${${params.length}}"`;
      continue;
    }
    for (let i = 0; i < part.length; i++) {
      const ch = part[i]!;
      script += ch;
      if (quote === "'") { if (ch === "'") quote = ''; continue; }
      if (ch === '\\' && i + 1 < part.length) { script += part[++i]!; continue; }
      if (quote === '"') { if (ch === '"') quote = ''; continue; }
      if (ch === "'" || ch === '"') quote = ch;
    }
  }
  return { script, params };
}

/** The config's command line as words (../markers/words.ts), a quoting mistake refused at `at`. */
export function splitWords(parts: Part[], at: Path): Part[][] {
  try {
    return split(parts);
  } catch (e) {
    if (e instanceof WordError) throw new LowerError(e.message, at);
    throw e;
  }
}
