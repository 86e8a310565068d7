// Collects the hoisted declarations of one generated module: named leaf functions and
// de-duplicated constants, in a deterministic order.
import { Code, _, comment, type Name } from './code.ts';
import { Names } from './names.ts';

export class Emitter {
  readonly names = new Names();
  readonly decls: Code[] = [];
  private consts = new Map<string, Name>();
  private readonly lineKeys = new Names();
  private readonly lines: Array<[string, number]> = [];
  /** Config path → its position-table key, for the comments of what sits inside it. */
  private readonly located = new Map<string, string>();

  constructor(readonly file: string) {}

  /** A constant hoisted once per distinct value (objects and arrays are shared, never mutated). */
  constant(value: unknown, ...hint: string[]): Code {
    if (value === null || typeof value !== 'object') return _`${value as string}`;
    const keyText = JSON.stringify(value);
    const found = this.consts.get(keyText);
    if (found) return found;
    const name = this.names.make(...hint, 'const');
    this.consts.set(keyText, name);
    this.decls.push(_`const ${name} = ${value as Record<string, unknown>};`);
    return name;
  }

  /**
   * A named declaration with a comment naming its place in the config (interface › action › field)
   * and the position-table entry of the nearest enclosing interface or action.
   */
  declare(at: readonly string[], what: string | undefined, decl: Code): void {
    const note = at.join(' › ') + (what === undefined ? '' : `: ${what}`);
    let near: string | undefined;
    for (let n = at.length; n > 0 && !near; n--) near = this.located.get(at.slice(0, n).join('\0'));
    const ref = near ? ` (in lines.${near})` : '';
    this.decls.push(new Code(`// ${comment(note)}${ref}\n${decl.text}`));
  }

  /**
   * A source line, as a reference into the module's one position table: a line inserted in the
   * YAML then changes only that table, never the code that refers to it.
   */
  line(n: number, at: readonly string[]): Code {
    const key = this.lineKeys.make(...at);
    this.lines.push([key.text, n]);
    this.located.set(at.join('\0'), key.text);
    return new Code(`lines.${key.text}`);
  }

  /** The position table, one entry per line (prettier keeps an object literal broken when its source is). */
  linesTable(): Code | undefined {
    if (!this.lines.length) return undefined;
    const rows = this.lines.map(([k, n]) => `  ${k}: ${n},`).join('\n');
    return new Code(`// Lines in ${comment(this.file)} of what the code below refers to as lines.<name>.\nconst lines = {\n${rows}\n};`);
  }
}
