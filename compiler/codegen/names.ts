// Names for generated functions and constants: from config ids plus a per-compile counter when
// two ids sanitise to the same identifier. Deterministic: the same config gives the same names.
import { Name } from '../emit/code.ts';

const RESERVED = new Set(['rt', 'jq', 'jp', 'calc', 'plan', 'lines', 'd', 's', 'input', 'target', 'default', 'class', 'function', 'new', 'delete', 'return', 'var', 'let', 'const', 'this', 'in', 'if', 'do', 'for', 'while', 'switch', 'case', 'try', 'catch', 'throw', 'void', 'typeof', 'with', 'yield', 'await', 'enum', 'export', 'import', 'super', 'null', 'true', 'false', 'eval', 'arguments']);

export class Names {
  private used = new Map<string, number>();

  make(...parts: string[]): Name {
    let base = parts.map((p) => p.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '')).filter(Boolean).join('_') || 'leaf';
    if (/^\d/.test(base) || RESERVED.has(base)) base = `_${base}`;
    const n = this.used.get(base) ?? 0;
    this.used.set(base, n + 1);
    return new Name(n === 0 ? base : `${base}_${n + 1}`);
  }
}
