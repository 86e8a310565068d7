// Collects the hoisted declarations of one generated module: named leaf functions and
// de-duplicated constants, in a deterministic order, and its position table.
import { Code, _, comment, type Name } from '../emit/code.ts';
import { Names } from './names.ts';
import { Positions } from './positions.ts';

export class Emitter {
  readonly names = new Names();
  readonly decls: Code[] = [];
  /** Declarations written by another generator (ajv), placed after decls and left out of the layout. */
  readonly verbatim: string[] = [];
  private consts = new Map<string, Name>();
  readonly positions: Positions;

  constructor(readonly file: string) {
    this.positions = new Positions(file);
  }

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
    const near = this.positions.near(at);
    this.decls.push(new Code(`// ${comment(note)}${near ? ` (in lines.${near.text})` : ''}\n${decl.text}`));
  }

  /** Like declare, for code our layout does not read (it is another generator's, laid out its own way). */
  declareVerbatim(at: readonly string[], what: string, decl: string): void {
    this.verbatim.push(`// ${comment(`${at.join(' › ')}: ${what}`)}\n${decl}\n`);
  }

  /** A source line, as a reference into the module's position table. */
  line(n: number, at: readonly string[]): Code {
    return this.positions.line(n, at);
  }
}
