// The one position table of a generated module: every source line the module needs, keyed by a
// name from its config path. Code refers to `lines.<key>`, so a line inserted in the YAML changes
// only the table, never the code that refers to it.
import { Code, _, comment, join, type Name } from '../emit/code.ts';
import { Names } from './names.ts';

export class Positions {
  private readonly keys = new Names();
  private readonly rows: Array<[Name, number]> = [];
  /** Config path → its key, for the comments of what sits inside it. */
  private readonly located = new Map<string, Name>();

  constructor(private readonly file: string) {}

  /** A reference to the line `n` of the thing at config path `at`. */
  line(n: number, at: readonly string[]): Code {
    const key = this.keys.make(...at);
    this.rows.push([key, n]);
    this.located.set(at.join('\0'), key);
    return _`lines.${key}`;
  }

  /** The key of the nearest enclosing located thing (interface, action…) of config path `at`. */
  near(at: readonly string[]): Name | undefined {
    for (let n = at.length; n > 0; n--) {
      const key = this.located.get(at.slice(0, n).join('\0'));
      if (key) return key;
    }
    return undefined;
  }

  /** The table, one entry per line (the layout keeps a line it is given). */
  table(): Code | undefined {
    if (!this.rows.length) return undefined;
    const rows = join(this.rows.map(([k, n]) => _`  ${k}: ${n},`), '\n');
    return new Code(`// Lines in ${comment(this.file)} of what the code below refers to as lines.<name>.\nconst lines = {\n${rows.text}\n};`);
  }
}
