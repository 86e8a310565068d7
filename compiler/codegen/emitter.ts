// Collects the hoisted declarations of one generated module: named leaf functions and
// de-duplicated constants, in a deterministic order.
import { Code, _, comment, type Name } from './code.ts';
import { Names } from './names.ts';

export class Emitter {
  readonly names = new Names();
  readonly decls: Code[] = [];
  private consts = new Map<string, Name>();

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

  /** A named declaration with a comment saying where in the config it comes from. */
  declare(note: string, line: number, decl: Code): void {
    this.decls.push(new Code(`// ${comment(note)} (${comment(this.file)}:${line})\n${decl.text}`));
  }
}
