// Recursive-descent parser for the jq subset (grammar and precedence follow jq's parser.y).
// It rejects (returns null) anything outside the subset or doubtful, so the engine reports real errors:
// @jq-tools/jq has a parser, but it misreads valid jq (drops spaces in "\(.a) x", rejects 1e1000, {"a b"}).
import { numStr } from '../../runtime/jq/text.ts';
import { identity, type BinOp, type FnDef, type Node } from './ast.ts';
import { builtin, FORMATS } from './builtins.ts';
import { PRELUDE } from './prelude.ts';

class Reject extends Error {}
const reject = (why: string): never => { throw new Reject(why); };

type Tok =
  | { t: 'num'; v: number; end: number }
  | { t: 'var'; v: string; end: number }
  | { t: 'field'; v: string; end: number }
  | { t: 'ident'; v: string; end: number }
  | { t: 'kw'; v: string; end: number }
  | { t: 'op'; v: string; end: number }
  | { t: 'format'; v: string; end: number }
  | { t: 'eof'; v: ''; end: number };

const KEYWORDS = new Set([
  'def', 'if', 'then', 'elif', 'else', 'end', 'as', 'reduce', 'foreach', 'try', 'catch', 'label',
  'import', 'include', 'module', 'and', 'or', '__loc__', 'break',
]);
const NUMBER = /(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/y;
const FIELD = /\.([a-zA-Z_][a-zA-Z_0-9]*)/y;
const IDENT = /(?:[a-zA-Z_][a-zA-Z_0-9]*::)*[a-zA-Z_][a-zA-Z_0-9]*/y;
const VAR = /\$([a-zA-Z_][a-zA-Z_0-9]*)(?!::)/y;
const FORMAT = /@([a-zA-Z0-9_]+)/y;
// Longest first. Assignment operators, `?//`, `..`, `$` and `@` are outside the subset.
const OPS = ['?//', '//=', '|=', '+=', '-=', '*=', '/=', '%=', '==', '!=', '<=', '>=', '//', '..',
  '|', ',', '+', '-', '*', '/', '%', '<', '>', '=', '(', ')', '[', ']', '{', '}', ':', ';', '?', '.', '"', '$', '@'];
const SUPPORTED_OPS = new Set(['==', '!=', '<=', '>=', '//', '|', ',', '+', '-', '*', '/', '%', '<', '>',
  '(', ')', '[', ']', '{', '}', ':', ';', '?', '.', '"', '..', '|=', '+=', '-=', '*=', '/=', '%=', '//=', '=']);
const UPDATES: Record<string, BinOp | '//'> = { '+=': '+', '-=': '-', '*=': '*', '/=': '/', '%=': '%', '//=': '//' };
const CMP = new Set(['==', '!=', '<', '<=', '>', '>=']);

/** Why `src` is outside the subset (for measuring what to build next), or null when it parses. */
export function parseWhy(src: string): string | null {
  try {
    const p = new Parser(src, { ids: 0, prelude: new Map() });
    p.pipe();
    if (p.tok.t !== 'eof') reject('trailing input');
    return null;
  } catch (e) {
    if (e instanceof Reject) return e.message;
    if (e instanceof RangeError) return 'too deep';
    throw e;
  }
}

/** Parses a jq program of the subset; null when it is outside the subset or not valid jq. */
export function parseJq(src: string): Node | null {
  try {
    const p = new Parser(src, { ids: 0, prelude: new Map() });
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

/** A destructuring pattern: `$x`, `[p, ...]`, `{key: p, $name, $name: p, "key": p}`. */
type Pattern =
  | { k: 'var'; name: string }
  | { k: 'arr'; items: Pattern[] }
  | { k: 'obj'; entries: { key: string; bind: string | null; pat: Pattern | null }[] };

/** State shared by a program's parser and the parsers of the builtins it uses (ids stay unique). */
interface Shared { ids: number; prelude: Map<string, FnDef> }

/** What a function name refers to: a filter parameter of an enclosing def, or a def. */
type FnEntry = { name: string; arity: number } & ({ param: number } | { fn: FnDef });

class Parser {
  pos = 0;
  tok: Tok;
  /** Variables in scope, innermost last, with their binding ids. */
  private scope: { name: string; id: number }[] = [];
  /** Functions and filter parameters in scope, innermost last. */
  private fns: FnEntry[] = [];
  /** Labels in scope. */
  private labels: { name: string; id: number }[] = [];
  /** Defs whose bodies are being read (a call of one of them makes it recursive). */
  private defining: FnDef[] = [];

  constructor(readonly src: string, private readonly shared: Shared) {
    this.tok = this.lex();
  }

  private id(): number {
    return ++this.shared.ids;
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
    for (const re of [NUMBER, FIELD, IDENT, VAR, FORMAT]) re.lastIndex = i;
    let m: RegExpExecArray | null;
    if ((m = NUMBER.exec(s))) {
      const v = Number(m[0]);
      // jq keeps a literal's text ("1.0", "1E+2") for tostring; only spellings it prints the same are compiled.
      if (numStr(v) !== m[0] || /[eE]/.test(m[0])) reject('non-canonical number literal');
      return { t: 'num', v, end: i + m[0].length };
    }
    if ((m = FIELD.exec(s))) return { t: 'field', v: m[1], end: i + m[0].length };
    if ((m = VAR.exec(s))) return { t: 'var', v: m[1], end: i + m[0].length };
    if ((m = FORMAT.exec(s))) return { t: 'format', v: m[1], end: i + m[0].length };
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
    if (this.tok.t === 'kw' && !['if', 'reduce', 'foreach', 'try', 'def', 'label', 'break'].includes(this.tok.v)) reject(`keyword ${this.tok.v}`);
    if (this.is('def')) {
      const mark = this.fns.length;
      const fn = this.def();
      try {
        return { k: 'def', fn, rest: this.pipe() };
      } finally {
        this.fns.length = mark;
      }
    }
    if (this.is('label')) {
      this.next();
      if (this.tok.t !== 'var') return reject('label name');
      const name = String(this.next().v);
      this.expect('|');
      const id = this.id();
      this.labels.push({ name, id });
      try {
        return { k: 'label', id, body: this.pipe() };
      } finally {
        this.labels.pop();
      }
    }
    const bound = this.binding();
    if (bound) return bound;
    const l = this.comma();
    if (this.is('as')) reject('variable binding');
    if (!this.is('|')) return l;
    this.next();
    return { k: 'pipe', l, r: this.pipe() };
  }

  /** `def name(params): body;` (the def stays in scope for what follows, until the caller drops it). */
  private def(): FnDef {
    this.expect('def');
    if (this.tok.t !== 'ident' && this.tok.t !== 'kw') return reject('def name');
    const name = String(this.next().v);
    const params: FnDef['params'] = [];
    if (this.is('(')) {
      this.next();
      for (;;) {
        const t = this.next();
        if (t.t === 'var') params.push({ name: t.v, id: this.id(), var: this.id() });
        else if (t.t === 'ident') params.push({ name: t.v, id: this.id(), var: null });
        else reject('parameter');
        if (this.is(')')) break;
        this.expect(';');
      }
      this.next();
    }
    this.expect(':');
    const fn: FnDef = { name, params, body: identity, recursive: false };
    this.fns.push({ name, arity: params.length, fn });
    const mark = { fns: this.fns.length, scope: this.scope.length, labels: this.labels.length };
    for (const p of params) {
      this.fns.push({ name: p.name, arity: 0, param: p.id });
      if (p.var !== null) this.scope.push({ name: p.name, id: p.var });
    }
    this.defining.push(fn);
    try {
      fn.body = this.pipe();
    } finally {
      this.defining.pop();
      this.fns.length = mark.fns;
      this.scope.length = mark.scope;
    }
    this.expect(';');
    return fn;
  }

  /** A builtin defined in jq (prelude.ts), read once per program with only builtins in scope. */
  private preludeDef(name: string, arity: number): FnDef | null {
    const key = `${name}/${arity}`;
    const have = this.shared.prelude.get(key);
    if (have) return have;
    const src = PRELUDE[key];
    if (src === undefined) return null;
    const p = new Parser(src, this.shared);
    const fn = p.def();
    if (p.tok.t !== 'eof') reject('prelude');
    this.shared.prelude.set(key, fn);
    return fn;
  }

  /** A call of a function by name: parameters and defs in scope, then builtins. */
  private resolve(name: string, args: Node[]): Node {
    const e = this.fns.findLast((x) => x.name === name && x.arity === args.length);
    if (e && 'param' in e) return { k: 'param', id: e.param };
    if (e && 'fn' in e) {
      if (this.defining.includes(e.fn)) e.fn.recursive = true;
      return { k: 'fcall', fn: e.fn, args };
    }
    const b = builtin(name, args);
    if (b) return b;
    const fn = this.preludeDef(name, args.length);
    return fn ? { k: 'fcall', fn, args } : reject(`unsupported function ${name}/${args.length}`);
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
    const pat = this.pattern();
    this.expect('|');
    return this.bindPattern(pat, src, () => this.pipe());
  }

  /** `as <pattern>` (alternatives `?//` are left to the engine). */
  private pattern(): Pattern {
    this.expect('as');
    return this.patternItem();
  }

  private patternItem(): Pattern {
    if (this.tok.t === 'var') return { k: 'var', name: String(this.next().v) };
    if (this.is('[')) {
      this.next();
      const items: Pattern[] = [this.patternItem()];
      while (this.is(',')) {
        this.next();
        items.push(this.patternItem());
      }
      this.expect(']');
      return { k: 'arr', items };
    }
    if (!this.is('{')) return reject('pattern');
    this.next();
    const entries: { key: string; bind: string | null; pat: Pattern | null }[] = [];
    for (;;) {
      let key: string;
      let bind: string | null = null;
      const tok = this.tok as Tok;
      if (tok.t === 'var') key = bind = String(this.next().v);
      else if (tok.t === 'ident' || tok.t === 'kw') key = String(this.next().v);
      else if (this.is('"')) {
        const k = this.string();
        if (k.k !== 'lit' || typeof k.v !== 'string') return reject('pattern key');
        key = k.v;
      } else return reject('pattern key');
      let pat: Pattern | null = null;
      if (this.is(':')) {
        this.next();
        pat = this.patternItem();
      } else if (bind === null) reject('pattern key without $');
      entries.push({ key, bind, pat });
      if (this.is('}')) break;
      this.expect(',');
    }
    this.next();
    return { k: 'obj', entries };
  }

  /** Binds `pat` to the output of src around the body that `body()` parses with the pattern's variables in scope. */
  private bindPattern(pat: Pattern, src: Node, body: () => Node): Node {
    const mark = this.scope.length;
    const binds: { name: string; id: number; src: Node }[] = [];
    const walk = (p: Pattern, from: Node): void => {
      if (p.k === 'var') {
        const id = this.id();
        binds.push({ name: p.name, id, src: from });
        return;
      }
      // The value is held in a hidden variable and indexed per element, in order (jq's matchers).
      const id = this.id();
      binds.push({ name: '_', id, src: from });
      const v: Node = { k: 'var', name: '_', id };
      const at = (key: string | number): Node => ({ k: 'index', target: v, key: { k: 'lit', v: key }, opt: false });
      // jq matches array elements last first (its first index error is the last element's).
      if (p.k === 'arr') for (let i = p.items.length - 1; i >= 0; i--) walk(p.items[i], at(i));
      else for (const e of p.entries) {
        if (e.bind !== null) walk({ k: 'var', name: e.bind }, at(e.key));
        if (e.pat) walk(e.pat, at(e.key));
      }
    };
    walk(pat, src);
    // Later binds may not see earlier ones' names before jq does: all come into scope for the body.
    for (const b of binds) if (b.name !== '_') this.scope.push({ name: b.name, id: b.id });
    let n: Node;
    try {
      n = body();
    } finally {
      this.scope.length = mark;
    }
    for (let i = binds.length - 1; i >= 0; i--) n = { k: 'bind', src: binds[i].src, name: binds[i].name, id: binds[i].id, body: n };
    return n;
  }

  /** `reduce SRC as P (init; update)` and `foreach SRC as P (init; update[; extract])`. */
  private fold(): Node {
    const kind = String(this.next().v);
    const src = this.postfix(true);
    const pat = this.pattern();
    const id = this.id();
    const item: Node = { k: 'var', name: '_', id };
    this.expect('(');
    const init = this.pipe();
    this.expect(';');
    const update = this.bindPattern(pat, item, () => this.pipe());
    let extract: Node | null = null;
    if (kind === 'foreach' && this.is(';')) {
      this.next();
      extract = this.bindPattern(pat, item, () => this.pipe());
    }
    this.expect(')');
    if (kind === 'reduce') return { k: 'reduce', src, name: '_', id, init, update };
    return { k: 'foreach', src, name: '_', id, init, update, extract };
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
    const l = this.assign();
    if (!this.is('//')) return l;
    this.next();
    return { k: 'alt', l, r: this.alt() };
  }

  /** `lhs = rhs`, `lhs |= f`, `lhs op= rhs` (non-associative, between `//` and `or`). */
  private assign(): Node {
    const lhs = this.or();
    if (this.tok.t !== 'op' || !(this.tok.v === '=' || this.tok.v === '|=' || this.tok.v in UPDATES)) return lhs;
    const op = this.next().v;
    const rhs = this.or();
    if (this.tok.t === 'op' && (this.tok.v === '=' || this.tok.v === '|=' || this.tok.v in UPDATES)) reject('chained assignment');
    if (op === '=') return { k: 'assign', lhs, rhs };
    if (op === '|=') return { k: 'modify', lhs, f: rhs };
    // jq's gen_update: rhs as $t | lhs |= . op $t
    const id = this.id();
    const t: Node = { k: 'var', name: '_', id };
    const u = UPDATES[op];
    const f: Node = u === '//' ? { k: 'alt', l: identity, r: t } : { k: 'bin', op: u, l: identity, r: t };
    return { k: 'bind', src: rhs, name: '_', id, body: { k: 'modify', lhs, f } };
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

  // jq 1.8 folds constant operands with the same binop functions it runs (errors included), so a folded
  // expression is compiled like any other.
  private bin(op: BinOp, l: Node, r: Node): Node {
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
    if (tok.t === 'kw' && (tok.v === 'reduce' || tok.v === 'foreach')) return this.fold();
    if (tok.t === 'kw' && tok.v === 'break') {
      this.next();
      if (this.tok.t !== 'var') return reject('break');
      const name = this.next().v;
      const l = this.labels.findLast((x) => x.name === name) ?? reject('unknown label');
      return { k: 'break', id: l.id };
    }
    if (tok.t === 'kw' && tok.v === 'def') {
      // A def inside a term: `(def f: ...; f)` is read by pipe(); `def` as a term is not jq.
      return reject('def as term');
    }
    if (tok.t === 'format') {
      this.next();
      if (!FORMATS[tok.v]) return reject(`format @${tok.v}`);
      if (this.is('"')) {
        const s = this.string();
        return { k: 'str', parts: s.k === 'str' ? s.parts : [String((s as { v: string }).v)], format: tok.v };
      }
      return { k: 'call', name: `@${tok.v}`, args: [] };
    }
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
      return this.resolve(tok.v, args);
    }
    if (tok.t !== 'op') return reject(`unexpected ${tok.v || tok.t}`);
    switch (tok.v) {
      case '.':
        this.next();
        return this.is('"') ? this.afterDot(identity) : identity;
      case '..':
        this.next();
        return this.resolve('recurse', []);
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
