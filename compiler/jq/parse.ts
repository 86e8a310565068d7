// Recursive-descent parser for the jq subset (grammar and precedence follow jq's parser.y).
// It rejects (returns null) anything outside the subset or doubtful, so the engine reports real errors:
// @jq-tools/jq has a parser, but it misreads valid jq (drops spaces in "\(.a) x", rejects 1e1000, {"a b"}).
import { numStr } from '../../runtime/jq/text.ts';
import { identity, type BinOp, type Node } from './ast.ts';
import { builtin } from './builtins.ts';

class Reject extends Error {}
const reject = (why: string): never => { throw new Reject(why); };

type Tok =
  | { t: 'num'; v: number; end: number }
  | { t: 'var'; v: string; end: number }
  | { t: 'field'; v: string; end: number }
  | { t: 'ident'; v: string; end: number }
  | { t: 'kw'; v: string; end: number }
  | { t: 'op'; v: string; end: number }
  | { t: 'eof'; v: ''; end: number };

const KEYWORDS = new Set([
  'def', 'if', 'then', 'elif', 'else', 'end', 'as', 'reduce', 'foreach', 'try', 'catch', 'label',
  'import', 'include', 'module', 'and', 'or', '__loc__',
]);
const NUMBER = /(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/y;
const FIELD = /\.([a-zA-Z_][a-zA-Z_0-9]*)/y;
const IDENT = /(?:[a-zA-Z_][a-zA-Z_0-9]*::)*[a-zA-Z_][a-zA-Z_0-9]*/y;
const VAR = /\$([a-zA-Z_][a-zA-Z_0-9]*)(?!::)/y;
// Longest first. Assignment operators, `?//`, `..`, `$` and `@` are outside the subset.
const OPS = ['?//', '//=', '|=', '+=', '-=', '*=', '/=', '%=', '==', '!=', '<=', '>=', '//', '..',
  '|', ',', '+', '-', '*', '/', '%', '<', '>', '=', '(', ')', '[', ']', '{', '}', ':', ';', '?', '.', '"', '$', '@'];
const SUPPORTED_OPS = new Set(['==', '!=', '<=', '>=', '//', '|', ',', '+', '-', '*', '/', '%', '<', '>',
  '(', ')', '[', ']', '{', '}', ':', ';', '?', '.', '"']);
const CMP = new Set(['==', '!=', '<', '<=', '>', '>=']);

/** Parses a jq program of the subset; null when it is outside the subset or not valid jq. */
export function parseJq(src: string): Node | null {
  try {
    const p = new Parser(src);
    const node = p.pipe();
    if (p.tok.t !== 'eof') reject('trailing input');
    return node;
  } catch (e) {
    if (e instanceof Reject || e instanceof RangeError) return null; // RangeError: nesting too deep
    throw e;
  }
}

/** Constant expressions are folded by jq (with its own arithmetic and key checks): leave them to the engine. */
function isConst(n: Node): boolean {
  switch (n.k) {
    case 'lit': return true;
    case 'str': return n.parts.every((p) => typeof p === 'string');
    case 'neg': return isConst(n.e);
    case 'bin': case 'comma': return isConst(n.l) && isConst(n.r);
    case 'array': return n.e === null || isConst(n.e);
    case 'object': return n.entries.every((e) => isConst(e.key) && isConst(e.value));
    default: return false;
  }
}

/** `-` of a number literal is the negative literal (jq folds it too; jq 1.8 keeps `-0` as 0). */
function negate(e: Node): Node {
  return e.k === 'lit' && typeof e.v === 'number' ? { k: 'lit', v: e.v === 0 ? 0 : -e.v } : { k: 'neg', e };
}

class Parser {
  pos = 0;
  tok: Tok;
  /** Variables in scope, innermost last, with their binding ids. */
  private scope: { name: string; id: number }[] = [];
  private ids = 0;

  constructor(readonly src: string) {
    this.tok = this.lex();
  }

  private lex(): Tok {
    const s = this.src;
    let i = this.pos;
    for (;;) {
      const c = s[i];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') i++;
      else if (c === '#') {
        let j = s.indexOf('\n', i);
        if (j < 0) j = s.length;
        // Newer jq continues a comment after a trailing backslash; avoid depending on the version.
        if (/\\\r?$/.test(s.slice(i, j))) reject('comment continuation');
        i = j;
      } else break;
    }
    this.pos = i;
    if (i >= s.length) return { t: 'eof', v: '', end: i };
    for (const re of [NUMBER, FIELD, IDENT, VAR]) re.lastIndex = i;
    let m: RegExpExecArray | null;
    if ((m = NUMBER.exec(s))) {
      const v = Number(m[0]);
      // jq keeps a literal's text ("1.0", "1E+2") for tostring; only spellings it prints the same are compiled.
      if (numStr(v) !== m[0] || /[eE]/.test(m[0])) reject('non-canonical number literal');
      return { t: 'num', v, end: i + m[0].length };
    }
    if ((m = FIELD.exec(s))) return { t: 'field', v: m[1], end: i + m[0].length };
    if ((m = VAR.exec(s))) return { t: 'var', v: m[1], end: i + m[0].length };
    if ((m = IDENT.exec(s))) {
      if (m[0].includes('::')) reject('module reference');
      return { t: KEYWORDS.has(m[0]) ? 'kw' : 'ident', v: m[0], end: i + m[0].length } as Tok;
    }
    const op = OPS.find((o) => s.startsWith(o, i));
    if (!op || !SUPPORTED_OPS.has(op)) return reject(`unsupported token at ${i}`);
    return { t: 'op', v: op, end: i + op.length };
  }

  private next(): Tok {
    const t = this.tok;
    this.pos = t.end;
    this.tok = this.lex();
    return t;
  }

  private is(v: string): boolean {
    return (this.tok.t === 'op' || this.tok.t === 'kw') && this.tok.v === v;
  }

  private expect(v: string): void {
    if (!this.is(v)) reject(`expected ${v}`);
    this.next();
  }

  pipe(): Node {
    if (this.tok.t === 'kw' && !['if', 'reduce', 'try'].includes(this.tok.v)) reject(`keyword ${this.tok.v}`);
    const bound = this.binding();
    if (bound) return bound;
    const l = this.comma();
    if (this.is('as')) reject('variable binding');
    if (!this.is('|')) return l;
    this.next();
    return { k: 'pipe', l, r: this.pipe() };
  }

  /** `Term as $name | Pipe` at the start of a pipe (jq's grammar); null (input untouched) otherwise. */
  private binding(): Node | null {
    const saved = { pos: this.pos, tok: this.tok };
    let src: Node;
    try {
      src = this.postfix(true);
    } catch (e) {
      if (!(e instanceof Reject)) throw e;
      src = identity;
      this.pos = -1;
    }
    if (this.pos < 0 || !this.is('as')) {
      this.pos = saved.pos;
      this.tok = saved.tok;
      return null;
    }
    const { name, id } = this.pattern();
    this.expect('|');
    const body = this.within(name, id, () => this.pipe());
    return { k: 'bind', src, name, id, body };
  }

  /** `as $name` (destructuring patterns are left to the engine). */
  private pattern(): { name: string; id: number } {
    this.expect('as');
    if (this.tok.t !== 'var') return reject('destructuring');
    const name = String(this.next().v);
    return { name, id: ++this.ids };
  }

  private within<T>(name: string, id: number, f: () => T): T {
    this.scope.push({ name, id });
    try {
      return f();
    } finally {
      this.scope.pop();
    }
  }

  private reduce(): Node {
    this.expect('reduce');
    const src = this.postfix(true);
    const { name, id } = this.pattern();
    this.expect('(');
    const init = this.pipe();
    this.expect(';');
    const update = this.within(name, id, () => this.pipe());
    this.expect(')');
    return { k: 'reduce', src, name, id, init, update };
  }

  private comma(): Node {
    let l = this.alt();
    while (this.is(',')) {
      this.next();
      l = { k: 'comma', l, r: this.alt() };
    }
    return l;
  }

  private alt(): Node {
    const l = this.or();
    if (!this.is('//')) return l;
    this.next();
    return { k: 'alt', l, r: this.alt() };
  }

  private or(): Node {
    let l = this.and();
    while (this.is('or')) {
      this.next();
      l = { k: 'or', l, r: this.and() };
    }
    return l;
  }

  private and(): Node {
    let l = this.cmp();
    while (this.is('and')) {
      this.next();
      l = { k: 'and', l, r: this.cmp() };
    }
    return l;
  }

  private cmp(): Node {
    const l = this.additive();
    if (this.tok.t !== 'op' || !CMP.has(this.tok.v)) return l;
    const op = this.next().v as BinOp;
    const r = this.additive();
    if (this.tok.t === 'op' && CMP.has(this.tok.v)) reject('chained comparison');
    return this.bin(op, l, r);
  }

  private bin(op: BinOp, l: Node, r: Node): Node {
    if (isConst(l) && isConst(r)) reject('constant folding');
    return { k: 'bin', op, l, r };
  }

  private additive(): Node {
    let l = this.multiplicative();
    while (this.is('+') || this.is('-')) {
      const op = this.next().v as BinOp;
      l = this.bin(op, l, this.multiplicative());
    }
    return l;
  }

  private multiplicative(): Node {
    let l = this.unary();
    while (this.is('*') || this.is('/') || this.is('%')) {
      const op = this.next().v as BinOp;
      l = this.bin(op, l, this.unary());
    }
    return l;
  }

  // `'-' Exp` has the precedence of binary minus: it takes in `*`, `/`, `%` and postfix `?`.
  private unary(): Node {
    if (!this.is('-')) return this.postfix(true);
    this.next();
    return negate(this.multiplicative());
  }

  /** A Term with its suffixes; `allowTry` admits trailing `Exp '?'` (not allowed in object values). */
  private postfix(allowTry: boolean): Node {
    if (this.is('if')) {
      const n = this.ifExp();
      return allowTry ? this.tries(n) : reject('if in object value');
    }
    let t = this.term();
    for (;;) {
      if (this.tok.t === 'field') {
        const name = this.next().v;
        t = this.optional({ k: 'index', target: t, key: { k: 'lit', v: name }, opt: false });
      } else if (this.is('.')) {
        this.next();
        t = this.afterDot(t);
      } else if (this.is('[')) {
        t = this.bracket(t);
      } else break;
    }
    return allowTry ? this.tries(t) : t;
  }

  private tries(n: Node): Node {
    while (this.is('?')) {
      this.next();
      n = { k: 'try', body: n };
      // After `Exp '?'` no suffix may follow (jq: syntax error).
      if (this.tok.t === 'field' || this.is('.') || this.is('[')) reject('suffix after ?');
    }
    return n;
  }

  private afterDot(t: Node): Node {
    if (this.is('"')) return this.optional({ k: 'index', target: t, key: this.string(), opt: false });
    if (this.is('[')) return this.bracket(t);
    return reject('dangling .');
  }

  /** Suffix `?` directly after an index or iteration makes only that step optional. */
  private optional(n: Node & { opt: boolean }): Node {
    if (this.is('?')) {
      this.next();
      n.opt = true;
    }
    return n;
  }

  private bracket(target: Node): Node {
    this.expect('[');
    if (this.is(']')) {
      this.next();
      return this.optional({ k: 'iter', target, opt: false });
    }
    let from: Node | null = null;
    if (!this.is(':')) {
      from = this.pipe();
      if (this.is(']')) {
        this.next();
        return this.optional({ k: 'index', target, key: from, opt: false });
      }
    }
    this.expect(':');
    const to = from !== null && this.is(']') ? null : this.pipe();
    this.expect(']');
    return this.optional({ k: 'slice', target, from, to, opt: false });
  }

  private term(): Node {
    const tok = this.tok;
    if (tok.t === 'field') return identity; // the suffix loop reads the field
    if (tok.t === 'var') {
      this.next();
      // Only variables the program binds: $ENV, $__loc__, $__prog_args... are the engine's.
      const b = this.scope.findLast((x) => x.name === tok.v) ?? reject(`unbound $${tok.v}`);
      return { k: 'var', name: b.name, id: b.id };
    }
    if (tok.t === 'kw' && tok.v === 'reduce') return this.reduce();
    if (tok.t === 'kw' && tok.v === 'try') {
      // `try` binds tighter than any operator (jq's precedence): body and handler are postfix terms.
      this.next();
      const body = this.postfix(true);
      if (!this.is('catch')) return { k: 'try', body };
      this.next();
      return { k: 'try', body, handler: this.postfix(true) };
    }
    if (tok.t === 'num') {
      this.next();
      return { k: 'lit', v: tok.v };
    }
    if (tok.t === 'ident') {
      this.next();
      if (tok.v === 'true' || tok.v === 'false' || tok.v === 'null') {
        if (this.is('(')) reject('call of a literal');
        return { k: 'lit', v: tok.v === 'null' ? null : tok.v === 'true' };
      }
      const args: Node[] = [];
      if (this.is('(')) {
        this.next();
        args.push(this.pipe());
        while (this.is(';')) {
          this.next();
          args.push(this.pipe());
        }
        this.expect(')');
      }
      return builtin(tok.v, args) ?? reject(`unsupported function ${tok.v}/${args.length}`);
    }
    if (tok.t !== 'op') return reject(`unexpected ${tok.v || tok.t}`);
    switch (tok.v) {
      case '.':
        this.next();
        return this.is('"') ? this.afterDot(identity) : identity;
      case '"':
        return this.string();
      case '(': {
        this.next();
        const e = this.pipe();
        this.expect(')');
        return e;
      }
      case '[': {
        this.next();
        if (this.is(']')) {
          this.next();
          return { k: 'array', e: null };
        }
        const e = this.pipe();
        this.expect(']');
        return { k: 'array', e };
      }
      case '{':
        return this.object();
    }
    return reject(`unexpected ${tok.v}`);
  }

  private ifExp(): Node {
    this.expect('if');
    const cond = this.pipe();
    this.expect('then');
    const then = this.pipe();
    let otherwise: Node | null = null;
    if (this.is('elif')) {
      // `elif c then x ...` is `else if c then x ... end` sharing the same `end`.
      this.tok = { t: 'kw', v: 'if', end: this.tok.end };
      return { k: 'if', cond, then, else: this.ifExp() };
    }
    if (this.is('else')) {
      this.next();
      otherwise = this.pipe();
    }
    this.expect('end');
    return { k: 'if', cond, then, else: otherwise };
  }

  private object(): Node {
    this.expect('{');
    const entries: { key: Node; value: Node }[] = [];
    while (!this.is('}')) {
      const tok = this.tok;
      let key: Node;
      if (tok.t === 'ident' || tok.t === 'kw') {
        this.next();
        key = { k: 'lit', v: tok.v };
      } else if (this.is('"')) {
        key = this.string();
      } else if (this.is('(')) {
        this.next();
        key = this.pipe();
        this.expect(')');
        if (!this.is(':')) reject('expected :');
        if (isConst(key) && !(key.k === 'lit' && typeof key.v === 'string')) reject('constant object key');
      } else return reject('unsupported object key');
      if (this.is(':')) {
        this.next();
        entries.push({ key, value: this.objectValue() });
      } else {
        // {a} is {a: .a}; jq computes an interpolated key once for both, so leave that form to it.
        if (key.k !== 'lit') reject('interpolated key shorthand');
        entries.push({ key, value: { k: 'index', target: identity, key, opt: false } });
      }
      if (this.is(',')) this.next(); // a trailing comma is valid jq
      else if (!this.is('}')) reject('expected , or }');
    }
    this.next();
    return { k: 'object', entries };
  }

  // ExpD in jq's grammar: Term, `- ExpD`, or `ExpD | ExpD`.
  private objectValue(): Node {
    let l: Node;
    if (this.is('-')) {
      this.next();
      l = negate(this.objectValueTerm());
    } else {
      l = this.postfix(false);
    }
    if (!this.is('|')) return l;
    this.next();
    return { k: 'pipe', l, r: this.objectValue() };
  }

  private objectValueTerm(): Node {
    if (!this.is('-')) return this.postfix(false);
    this.next();
    return negate(this.objectValueTerm());
  }

  /** A string literal at the current `"` token; interpolations become parts. */
  private string(): Node {
    const s = this.src;
    let i = this.tok.end;
    const parts: (string | Node)[] = [];
    let buf = '';
    for (;;) {
      const c = s[i];
      if (c === undefined) return reject('unterminated string');
      if (c === '"') break;
      if (c !== '\\') {
        buf += c;
        i++;
        continue;
      }
      const e = s[i + 1];
      i += 2;
      if (e === '(') {
        if (buf) parts.push(buf);
        buf = '';
        this.pos = i;
        this.tok = this.lex();
        parts.push(this.pipe());
        if (!this.is(')')) reject('unterminated interpolation');
        i = this.tok.end;
        continue;
      }
      const simple = ({ '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' } as Record<string, string>)[e];
      if (simple !== undefined) {
        buf += simple;
        continue;
      }
      if (e !== 'u') return reject('invalid escape');
      const hex = (at: number): number => (/^[0-9a-fA-F]{4}$/.test(s.slice(at, at + 4)) ? parseInt(s.slice(at, at + 4), 16) : reject('bad \\u'));
      const u = hex(i);
      i += 4;
      if (u >= 0xdc00 && u <= 0xdfff) reject('lone surrogate');
      if (u >= 0xd800 && u <= 0xdbff) {
        if (s.slice(i, i + 2) !== '\\u') reject('lone surrogate');
        const lo = hex(i + 2);
        if (lo < 0xdc00 || lo > 0xdfff) reject('lone surrogate');
        i += 6;
        buf += String.fromCharCode(u, lo);
      } else {
        buf += String.fromCharCode(u);
      }
    }
    this.pos = i + 1;
    this.tok = this.lex();
    if (buf || parts.length === 0) parts.push(buf);
    return parts.length === 1 && typeof parts[0] === 'string' ? { k: 'lit', v: parts[0] } : { k: 'str', parts };
  }
}
