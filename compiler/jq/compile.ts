// Compiles the common jq subset to a plain JS function `(input) => unknown[]` (all outputs, in order).
// Runtime helpers are referenced as `jq.<name>` (runtime/jq/ops.ts). Evaluation order follows jq
// (index keys before targets, right operands before left, streams depth-first), so outputs and the
// first error are the same as the engine's. Program strings reach the code only through the `_` builder.
import { _, Code, join, Name } from '../emit/code.ts';
import type { FnDef, Node } from './ast.ts';
import { FORMATS, UNARY, WITH_FILTER, WITH_VALUE } from './builtins.ts';
import { parseJq } from './parse.ts';

// Beyond these (pathological nesting), the engine is the better choice.
const MAX_CODE = 200_000;
const MAX_STEPS = 50_000;
/** Thrown when a program is too big, or has a shape left to the engine. */
class TooBig extends Error {}
/** Thrown where a continuation that `return`s would have to become a JS function (see Gen.fn). */
class NeedsClosure extends TooBig {}

const OPS: Record<string, string> = { '+': 'add', '-': 'sub', '*': 'mul', '/': 'div', '%': 'mod', '==': 'eq', '!=': 'ne', '<': 'lt', '<=': 'le', '>': 'gt', '>=': 'ge' };

/** Builtins whose numbers are computed (jq 1.8 negates their zero to -0). */
const COMPUTED = new Set(['floor', 'ceil', 'round', 'sqrt', 'fabs', 'utf8bytelength']);

/** A runtime helper of runtime/jq/ops.ts by name. */
const op = (name: string): Code => _`jq.${new Name(name)}`;

/**
 * jq 1.8 keeps input and program numbers as literals, and negating a literal zero gives 0 while a computed
 * zero (arithmetic) gives -0: `-(arithmetic)` negates plainly, other operands through jq.neg.
 */
function negOp(e: Node): Code {
  if (e.k === 'call' && e.name === 'length') throw new TooBig(); // literal for a number input, computed otherwise
  const computed = (e.k === 'bin' && ['+', '-', '*', '/', '%'].includes(e.op)) || (e.k === 'call' && COMPUTED.has(e.name));
  return op(computed ? 'negComputed' : 'neg');
}

/** A recursive def compiled to JS functions (value mode, path mode), declared where the def is. */
interface RecFn { name: Name; modes: Set<'v' | 'p'>; env: Env }

/**
 * What names mean where code is being generated: variables (binding id to JS name), filter parameters
 * (the argument and the environment it was written in: jq's closures), labels, recursive defs.
 */
interface Env {
  vars: Map<number, Code>;
  params: Map<number, { node: Node; env: Env }>;
  labels: Map<number, Name>;
  fns: Map<FnDef, RecFn>;
}
const emptyEnv = (): Env => ({ vars: new Map(), params: new Map(), labels: new Map(), fns: new Map() });
const extend = <K, V>(m: Map<K, V>, k: K, v: V): Map<K, V> => new Map(m).set(k, v);

/** A path-mode continuation: the statements that consume one output value and its path. */
type PK = (v: Code, p: Code) => Code[];

/** A literal object key; `__proto__` computed so that it stays an own member. */
const propName = (k: string): Code => (k === '__proto__' ? _`[${k}]` : _`${k}`);
const objectLit = (props: Code[]): Code => (props.length ? _`{ ${join(props)} }` : _`{}`);

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The source of `(input) => unknown[]` for a jq program of the supported subset, or null when the
 * program uses anything else (then run it with runtime/jq/engine.ts jqAll).
 */
export function compileJq(src: string): { code: string } | null {
  // jq would read a lone surrogate as U+FFFD and stop the program text at a NUL (it is a C string).
  if (LONE_SURROGATE.test(src) || src.includes('\0')) return null;
  const ast = parseJq(src);
  if (!ast) return null;
  const g = new Gen();
  let single: Code | null;
  let code: Code;
  const input = _`input`;
  try {
    single = g.expr(ast, input);
    // Parenthesised so that callers may write `${code}(d)` or `${code} as T` around it.
    // A value nested deeper than this thread's JS stack allows (jq allows 10,000 levels) sends the call to
    // the engine, which has the stack for it: same answer, never a crash.
    const body = single !== null
      ? [_`return [${single}];`]
      // A stream starts the program's time and size budget (runtime/jq/bounds.ts): its loops tick.
      : [_`jq.begin();`, _`const out = new Array();`, ...g.gen(ast, input, small((v) => [_`jq.push(out, ${v});`])), _`return out;`];
    code = lines([_`((input) => {`, _`  try {`, ...indent(indent(body)), _`  } catch (e) {`, _`    return jq.deeper(e, ${src}, input);`, _`  }`, _`})`]);
  } catch (e) {
    if (e instanceof TooBig || e instanceof RangeError) return null; // RangeError: nesting too deep
    throw e;
  }
  return code.text.length > MAX_CODE ? null : { code: code.text };
}

/** A continuation: the statements that consume one output held in the JS expression v. */
type K = ((v: Code) => Code[]) & { small?: boolean };
/** Marks a continuation as a single short statement, cheaper to repeat than to call. */
const small = (k: (v: Code) => Code[]): K => Object.assign(k, { small: true });

// Code holds no raw newline inside a literal (the builder writes JSON), so every line can be indented.
const indent = (ls: Code[]): Code[] => ls.map((l) => new Code(`  ${l.text.replace(/\n/g, '\n  ')}`));
const lines = (ls: Code[]): Code => join(ls, '\n');
/** An object literal as an arrow function's body needs parentheses. */
const arrowBody = (e: Code): Code => (e.text.startsWith('{') ? _`(${e})` : e);
const SIMPLE = /^(?:[A-Za-z_$][\w$]*|-?[0-9][0-9.e+-]*|"(?:[^"\\]|\\.)*")$/;
const NEVER_THROW = new Set(['type', 'tostring', 'tojson', 'not', '@text', '@json']);

/** Whether evaluating n can raise an error (used to keep jq's order of errors in single expressions). */
function canThrow(n: Node): boolean {
  switch (n.k) {
    case 'identity': case 'lit': case 'empty': case 'var': return false;
    case 'try': return n.handler !== undefined && canThrow(n.handler);
    case 'str': return n.parts.some((p) => typeof p !== 'string' && canThrow(p));
    case 'array': return n.e !== null && canThrow(n.e);
    case 'object': return n.entries.some((e) => e.key.k !== 'lit' || canThrow(e.value));
    case 'pipe': case 'comma': case 'and': case 'or': case 'alt': return canThrow(n.l) || canThrow(n.r);
    case 'if': return canThrow(n.cond) || canThrow(n.then) || (n.else !== null && canThrow(n.else));
    case 'call': return !NEVER_THROW.has(n.name) || n.args.some(canThrow);
    default: return true;
  }
}

/** Whether the first thing n's code evaluates is its input (so an input expression may be inlined). */
function inputFirst(n: Node): boolean {
  switch (n.k) {
    case 'identity': return true;
    case 'index': return !n.opt && n.key.k === 'lit' && inputFirst(n.target);
    case 'neg': return inputFirst(n.e);
    case 'call': return n.args.every((a) => a.k === 'lit') || WITH_FILTER[n.name] !== undefined;
    case 'array': return n.e?.k === 'pipe' && n.e.l.k === 'iter' && !n.e.l.opt && inputFirst(n.e.l.target); // map(f)
    default: return false;
  }
}

/** Whether n surely has exactly one output (or an error). */
function singleOutput(n: Node): boolean {
  switch (n.k) {
    case 'identity': case 'lit': case 'var': case 'array': return true;
    case 'index': case 'slice': return !n.opt && children(n).every(singleOutput);
    case 'str': case 'neg': case 'bin': case 'and': case 'or': case 'object': case 'pipe': case 'bind': return children(n).every(singleOutput);
    case 'if': return children(n).every(singleOutput) && n.else !== null;
    case 'call': return n.args.every(singleOutput) && (UNARY[n.name] !== undefined || WITH_VALUE[`${n.name}/${n.args.length}`] !== undefined);
    default: return false;
  }
}

/** Whether n contains a `break` to a label outside n (not counting defs' bodies, which have their own). */
function breaksOut(n: Node, inside: Set<number> = new Set()): boolean {
  switch (n.k) {
    case 'break': return !inside.has(n.id);
    case 'label': return breaksOut(n.body, new Set(inside).add(n.id));
    default: return children(n).some((c) => breaksOut(c, inside));
  }
}

function children(n: Node): Node[] {
  const out: Node[] = [];
  for (const v of Object.values(n)) {
    if (Array.isArray(v)) for (const x of v) {
      if (x && typeof x === 'object' && 'k' in x) out.push(x as Node);
      else if (x && typeof x === 'object' && 'key' in x) out.push((x as { key: Node }).key, (x as { value: Node }).value);
    }
    else if (v && typeof v === 'object' && 'k' in v) out.push(v as Node);
  }
  return out;
}

class Gen {
  private n = 0;
  private steps = 0;
  /** Inside first-output / predicate functions continuations `return`, so they are never hoisted. */
  private inReturning = false;
  private env: Env = emptyEnv();
  /** Wrapped bodies of non-recursive defs with `$` parameters (`def f($a): b` is `def f(a): a as $a | b`). */
  private bodies = new Map<FnDef, Node>();

  private withEnv<T>(env: Env, f: () => T): T {
    const saved = this.env;
    this.env = env;
    try {
      return f();
    } finally {
      this.env = saved;
    }
  }

  /** k, called from code generated in another environment, runs in the one it was made in. */
  private home(k: K): K {
    const env = this.env;
    return Object.assign((v: Code) => this.withEnv(env, () => k(v)), { small: k.small });
  }

  private homeP(k: PK): PK {
    const env = this.env;
    return (v, p) => this.withEnv(env, () => k(v, p));
  }

  private varOf(id: number): Code {
    const v = this.env.vars.get(id);
    if (!v) throw new TooBig(); // not bound where used (a shape this compiler does not follow)
    return v;
  }

  /** Binds a jq variable to a fresh JS const for the statements `body` generates. */
  private withVar(id: number, name: string, value: Code, body: () => Code[]): Code[] {
    const js = this.fresh(`$${name === '_' ? 'v' : name}_`);
    return [_`const ${js} = ${value};`, ...this.withEnv({ ...this.env, vars: extend(this.env.vars, id, js) }, body)];
  }

  private fresh(prefix: string): Name {
    return new Name(`${prefix}${++this.n}`);
  }

  /** A JS expression for n when it has exactly one output (or throws), else null. */
  expr(n: Node, inp: Code): Code | null {
    switch (n.k) {
      case 'identity': return inp;
      case 'var': return this.varOf(n.id);
      case 'lit': return _`${n.v}`;
      case 'str': {
        if (n.parts.filter((p) => typeof p !== 'string' && canThrow(p)).length > 1) return null;
        const f = op(n.format ? FORMATS[n.format] : 'tostring');
        const parts = n.parts.map((p) => (typeof p === 'string' ? _`${p}` : this.exprTo(p, inp, (e) => _`${f}(${e})`)));
        return parts.includes(null) ? null : _`(${join(parts as Code[], ' + ')})`;
      }
      case 'index': {
        if (n.opt) return null;
        const t = this.expr(n.target, inp);
        if (t === null) return null;
        if (n.key.k === 'lit' && typeof n.key.v === 'string') return _`jq.field(${t}, ${n.key.v})`;
        if (n.key.k === 'lit' && typeof n.key.v === 'number') return _`jq.at(${t}, ${n.key.v})`;
        const key = this.expr(n.key, inp);
        if (key === null || (canThrow(n.key) && canThrow(n.target))) return null;
        return _`jq.idx(${t}, ${key})`;
      }
      case 'slice': {
        if (n.opt || [n.from, n.to, n.target].filter((x) => x !== null && canThrow(x)).length > 1) return null;
        const t = this.expr(n.target, inp);
        const from = n.from ? this.expr(n.from, inp) : _`null`;
        const to = n.to ? this.expr(n.to, inp) : _`null`;
        return t === null || from === null || to === null ? null : _`jq.slice(${t}, ${from}, ${to})`;
      }
      case 'neg': return this.exprTo(n.e, inp, (e) => _`${negOp(n.e)}(${e})`);
      case 'bin': {
        if (canThrow(n.l) && canThrow(n.r)) return null; // jq evaluates the right operand first
        const l = this.expr(n.l, inp);
        const r = this.expr(n.r, inp);
        return l === null || r === null ? null : _`${op(OPS[n.op])}(${l}, ${r})`;
      }
      case 'and': case 'or': {
        const l = this.expr(n.l, inp);
        const r = this.expr(n.r, inp);
        if (l === null || r === null) return null;
        return n.k === 'and' ? _`(jq.truthy(${l}) ? jq.truthy(${r}) : false)` : _`(jq.truthy(${l}) ? true : jq.truthy(${r}))`;
      }
      case 'if': {
        const c = this.expr(n.cond, inp);
        const t = this.expr(n.then, inp);
        const e = n.else ? this.expr(n.else, inp) : inp;
        return c === null || t === null || e === null ? null : _`(jq.truthy(${c}) ? ${t} : ${e})`;
      }
      case 'pipe': {
        const l = this.expr(n.l, inp);
        if (l === null || !inputFirst(n.r)) return null;
        return this.expr(n.r, l);
      }
      case 'array': return this.arrayExpr(n.e, inp);
      case 'object': {
        const parts: Code[] = [];
        for (const { key, value: val } of n.entries) {
          const v = this.expr(val, inp);
          if (v === null) return null;
          if (key.k === 'lit' && typeof key.v === 'string') {
            parts.push(_`${propName(key.v)}: ${v}`);
          } else {
            // JS checks a computed key before evaluating the value; jq after.
            const k = this.expr(key, inp);
            if (k === null || canThrow(val)) return null;
            parts.push(_`[jq.key(${k})]: ${v}`);
          }
        }
        return objectLit(parts);
      }
      case 'call': return this.callExpr(n, inp);
      default: return null;
    }
  }

  private exprTo(n: Node, inp: Code, wrap: (e: Code) => Code): Code | null {
    const e = this.expr(n, inp);
    return e === null ? null : wrap(e);
  }

  private arrayExpr(e: Node | null, inp: Code): Code | null {
    if (e === null) return _`[]`;
    const items: Node[] = [];
    for (let c: Node = e; ; c = c.l) {
      if (c.k !== 'comma') {
        items.unshift(c);
        break;
      }
      items.unshift(c.r);
    }
    const codes = items.map((x) => this.expr(x, inp));
    if (!codes.includes(null)) return _`[${join(codes as Code[])}]`;
    // [T[] | f] and [T[] | select(f)] with single-output T and f.
    if (e.k !== 'pipe' || e.l.k !== 'iter' || e.l.opt) return null;
    const t = this.expr(e.l.target, inp);
    if (t === null) return null;
    const v = this.fresh('v');
    const f = e.r;
    if (f.k === 'if' && f.then.k === 'identity' && f.else?.k === 'empty') {
      const c = this.expr(f.cond, v);
      return c === null ? null : _`jq.iter(${t}).filter((${v}) => jq.truthy(${c}))`;
    }
    const body = this.expr(f, v);
    return body === null ? null : _`jq.iter(${t}).map((${v}) => ${arrowBody(body)})`;
  }

  private callExpr(n: Node & { k: 'call' }, inp: Code): Code | null {
    if (n.args.length === 0) return _`${op(UNARY[n.name])}(${inp})`;
    const filter = WITH_FILTER[n.name];
    if (filter) return _`${op(filter.helper)}(${inp}, ${this.fn(n.args[0], filter.fn)})`;
    // jq evaluates a C builtin's arguments last first: with more than one that may fail, order matters.
    if (n.args.filter(canThrow).length > 1) return null;
    const args = n.args.map((a) => this.expr(a, inp));
    return args.includes(null) ? null : _`${op(WITH_VALUE[`${n.name}/${n.args.length}`])}(${join([inp, ...(args as Code[])])})`;
  }

  /** Source of the per-element function a helper calls for `sort_by(f)`, `map_values(f)`, `any(f)`... */
  private fn(f: Node, kind: 'keys' | 'first' | 'any' | 'all'): Code {
    const v = this.fresh('v');
    const e = this.expr(f, v);
    if (e !== null) {
      if (kind === 'keys') return _`(${v}) => [${e}]`;
      if (kind === 'first') return _`(${v}) => ${arrowBody(e)}`;
      return _`(${v}) => jq.truthy(${e})`;
    }
    const saved = this.inReturning;
    let body: Code[];
    try {
      if (kind === 'keys') {
        this.inReturning = false;
        const a = this.fresh('a');
        body = [_`const ${a} = new Array();`, ...this.gen(f, v, small((x) => [_`jq.push(${a}, ${x});`])), _`return ${a};`];
      } else {
        try {
          this.inReturning = true;
          if (kind === 'first') body = [...this.gen(f, v, small((x) => [_`return ${x};`])), _`return undefined;`];
          else if (kind === 'any') body = [...this.gen(f, v, small((x) => [_`if (jq.truthy(${x})) return true;`])), _`return false;`];
          else body = [...this.gen(f, v, small((x) => [_`if (!jq.truthy(${x})) return false;`])), _`return true;`];
        } catch (e) {
          if (!(e instanceof NeedsClosure)) throw e;
          // f calls a recursive def: stop at the deciding output by a label's break instead of `return`.
          this.inReturning = false;
          const r = this.fresh('r');
          const init = kind === 'first' ? 'undefined' : String(kind === 'all');
          const token = this.fresh('label');
          const stop = (x: Code): Code[] => (kind === 'first'
            ? [_`${r} = ${x};`, _`throw ${token};`]
            : [_`if (${kind === 'any' ? _`` : _`!`}jq.truthy(${x})) {`, _`  ${r} = ${kind === 'any'};`, _`  throw ${token};`, _`}`]);
          body = [_`let ${r} = ${new Name(init)};`, ...this.label(-2, (kk) => this.gen(f, v, kk), small(stop), token), _`return ${r};`];
        }
      }
    } finally {
      this.inReturning = saved;
    }
    return lines([_`(${v}) => {`, ...indent(body), _`}`]);
  }

  /** Binds e to a const unless it is already a name or literal, then continues with k. */
  private bind(e: Code, k: K): Code[] {
    if (SIMPLE.test(e.text) || k.small) return k(e); // small continuations use their value once
    const v = this.fresh('v');
    return [_`const ${v} = ${e};`, ...k(v)];
  }

  /** k for use in more than one place: small ones are repeated, larger ones become a local function. */
  private share(k: K, out: Code[]): K {
    if (this.inReturning || k.small) return k;
    const name = this.fresh('k');
    const p = this.fresh('v');
    out.push(_`const ${name} = jq.each((${p}) => {`, ...indent(k(p)), _`});`);
    return small((v) => [_`${name}(${v});`]);
  }

  /** Statements that call k once per output of n (k's code appears once per branch of n). */
  gen(n: Node, inp: Code, k: K): Code[] {
    if (++this.steps > MAX_STEPS) throw new TooBig();
    const e = this.expr(n, inp);
    if (e !== null) return this.bind(e, k);
    switch (n.k) {
      case 'pipe': return this.gen(n.l, inp, (v) => this.gen(n.r, v, k));
      case 'comma': {
        const out: Code[] = [];
        const kk = this.share(k, out);
        return [...out, ...this.gen(n.l, inp, kk), ...this.gen(n.r, inp, kk)];
      }
      case 'empty': return [];
      case 'error': return n.msg ? this.gen(n.msg, inp, (m) => [_`jq.error(${m});`]) : [_`jq.error(${inp});`];
      case 'iter': return this.gen(n.target, inp, (t) => {
        const v = this.fresh('v');
        return [_`for (const ${v} of ${op(n.opt ? 'iterOpt' : 'iter')}(${t})) {`, _`  jq.tick();`, ...indent(k(v)), _`}`];
      });
      case 'index': {
        if (n.key.k === 'lit') {
          const { v } = n.key;
          const how = n.opt ? 'idx' : typeof v === 'string' ? 'field' : typeof v === 'number' ? 'at' : 'idx';
          return this.gen(n.target, inp, (t) => this.access(how, [t, _`${v}`], n.opt, k));
        }
        // jq evaluates the key before the target (keys vary slowest).
        return this.gen(n.key, inp, (key) => this.gen(n.target, inp, (t) => this.access('idx', [t, key], n.opt, k)));
      }
      case 'slice': {
        const bound = (b: Node | null, then: K): Code[] => (b ? this.gen(b, inp, then) : then(_`null`));
        return bound(n.from, (f) => bound(n.to, (to) => this.gen(n.target, inp, (t) => this.access('slice', [t, f, to], n.opt, k))));
      }
      case 'try': {
        // jq's try also catches a `break` to a label outside its body: such programs stay with the engine.
        if (breaksOut(n.body)) throw new TooBig();
        // Outputs before an error are kept; errors raised after the body (in k) must propagate.
        const a = this.fresh('a');
        const err = this.fresh('e');
        const v = this.fresh('v');
        return [
          _`const ${a} = new Array();`,
          _`try {`,
          ...indent(this.gen(n.body, inp, small((x) => [_`jq.push(${a}, ${x});`]))),
          _`} catch (${err}) {`,
          _`  jq.caught(${err});`,
          // The handler sees the error's value; its own errors propagate.
          ...(n.handler ? indent(this.gen(n.handler, _`jq.errorValue(${err})`, small((x) => [_`jq.push(${a}, ${x});`]))) : []),
          _`}`,
          _`for (const ${v} of ${a}) {`,
          ...indent(k(v)),
          _`}`,
        ];
      }
      case 'neg': return this.gen(n.e, inp, (v) => this.bind(_`${negOp(n.e)}(${v})`, k));
      case 'bin': return this.gen(n.r, inp, (r) => this.gen(n.l, inp, (l) => this.bind(_`${op(OPS[n.op])}(${l}, ${r})`, k)));
      case 'and': case 'or': {
        const out: Code[] = [];
        const kk = this.share(k, out);
        const short = _`${n.k === 'or'}`;
        return [...out, ...this.gen(n.l, inp, (l) => [
          n.k === 'and' ? _`if (!jq.truthy(${l})) {` : _`if (jq.truthy(${l})) {`,
          ...indent(kk(short)),
          _`} else {`,
          ...indent(this.gen(n.r, inp, (r) => this.bind(_`jq.truthy(${r})`, kk))),
          _`}`,
        ])];
      }
      case 'alt': {
        // Truthy outputs of the left side stream through; the right side runs only if there were none.
        const out: Code[] = [];
        const kk = this.share(k, out);
        const found = this.fresh('found');
        return [
          ...out,
          _`let ${found} = false;`,
          ...this.gen(n.l, inp, (l) => [_`if (jq.truthy(${l})) {`, _`  ${found} = true;`, ...indent(kk(l)), _`}`]),
          _`if (!${found}) {`,
          ...indent(this.gen(n.r, inp, kk)),
          _`}`,
        ];
      }
      case 'if': {
        const out: Code[] = [];
        const kk = n.else?.k === 'empty' ? k : this.share(k, out); // select(f): k is used once
        const otherwise = n.else ? this.gen(n.else, inp, kk) : kk(inp);
        const branch = (c: Code): Code[] => [
          _`if (jq.truthy(${c})) {`,
          ...indent(this.gen(n.then, inp, kk)),
          ...(otherwise.length ? [_`} else {`, ...indent(otherwise)] : []),
          _`}`,
        ];
        const cond = this.expr(n.cond, inp);
        return [...out, ...(cond !== null ? branch(cond) : this.gen(n.cond, inp, branch))];
      }
      case 'array': {
        const a = this.fresh('a');
        return [_`const ${a} = new Array();`, ...(n.e ? this.gen(n.e, inp, small((v) => [_`jq.push(${a}, ${v});`])) : []), ...k(a)];
      }
      case 'object': return this.objectGen(n.entries, 0, inp, [], k);
      case 'str': return this.strGen(n.parts, n.parts.length - 1, inp, new Map(), k, op(n.format ? FORMATS[n.format] : 'tostring'));
      case 'call': {
        // Only value arguments can have several outputs here; the last one varies slowest (jq).
        const helper = WITH_VALUE[`${n.name}/${n.args.length}`];
        const vals: Code[] = [];
        const each = (i: number): Code[] => (i < 0
          ? this.bind(_`${op(helper)}(${join([inp, ...vals])})`, k)
          : this.gen(n.args[i], inp, (a) => { vals[i] = a; return each(i - 1); }));
        return each(n.args.length - 1);
      }
      case 'range': return this.gen(n.from, inp, (f) => this.gen(n.upto, inp, (u) => {
        const v = this.fresh('v');
        return [_`for (const ${v} of jq.range(${f}, ${u})) {`, ...indent(k(v)), _`}`];
      }));
      case 'bind':
        // A block per binding: a continuation may be emitted twice in one scope.
        return this.gen(n.src, inp, (v) => [_`{`, ...indent(this.withVar(n.id, n.name, v, () => this.gen(n.body, inp, k))), _`}`]);
      case 'reduce': {
        // For each init output: fold the source's outputs; the update's last output is the new state, none is null.
        const acc = this.fresh('acc');
        const last = this.fresh('last');
        const saved = this.inReturning;
        this.inReturning = false;
        const fold = this.gen(n.src, inp, (x) => [
          _`{`,
          ...indent(this.withVar(n.id, n.name, x, () => [
            _`let ${last} = null;`,
            ...this.gen(n.update, acc, small((u) => [_`${last} = ${u};`])),
            _`${acc} = ${last};`,
          ])),
          _`}`,
        ]);
        this.inReturning = saved;
        // Several init outputs: jq 1.8 folds a `?` source only for the first one; not compiled.
        if (!singleOutput(n.init)) throw new TooBig();
        return this.gen(n.init, inp, (a0) => [_`{`, _`  let ${acc} = ${a0};`, ...indent(fold), ...indent(k(acc)), _`}`]);
      }
      default: return this.more(n, inp, k);
    }
  }

  /** The constructs beyond single expressions and plain streams: defs, labels, foreach, paths, updates. */
  private more(n: Node, inp: Code, k: K): Code[] {
    switch (n.k) {
      case 'def': return this.def(n.fn, () => this.gen(n.rest, inp, k));
      case 'fcall': {
        const rec = this.env.fns.get(n.fn);
        // A recursive builtin (prelude.ts) has no def node in the program: declare it at the call.
        if (!rec && n.fn.recursive) return this.def(n.fn, () => this.gen(n, inp, k));
        if (!rec) return this.inline(n.fn, n.args, (body) => this.gen(body, inp, this.home(k)));
        return this.recCall(rec, n.args, inp, (name, vals) => {
          rec.modes.add('v');
          return [_`${name}(${join([inp, this.closure(k), ...vals])});`];
        });
      }
      case 'param': {
        const p = this.env.params.get(n.id);
        if (!p) throw new TooBig();
        const kk = this.home(k);
        return this.withEnv(p.env, () => this.gen(p.node, inp, kk));
      }
      case 'label': return this.label(n.id, (kk) => this.gen(n.body, inp, kk), k);
      case 'break': return [_`throw ${this.labelOf(n.id)};`];
      case 'foreach': {
        // For each init output: the state is each output of update in turn (none leaves it), extract runs on it.
        const st = this.fresh('st');
        const out: Code[] = [];
        const kk = this.share(k, out);
        const loop = (): Code[] => this.gen(n.src, inp, (x) => [
          _`{`,
          ...indent(this.withVar(n.id, n.name, x, () => {
            const s0 = this.fresh('s');
            return [_`const ${s0} = ${st};`, ...this.gen(n.update, s0, (u) => {
              const s1 = this.fresh('s');
              return [_`const ${s1} = ${u};`, _`${st} = ${s1};`, ...(n.extract ? this.gen(n.extract, s1, kk) : kk(s1))];
            })];
          })),
          _`}`,
        ]);
        return [...out, ...this.gen(n.init, inp, (a0) => [_`{`, _`  let ${st} = ${a0};`, ...indent(loop()), _`}`])];
      }
      case 'path': return this.pgen(n.e, inp, _`[]`, (_v, p) => k(p));
      case 'getpath': return this.gen(n.p, inp, (p) => this.bind(_`jq.getpath(${inp}, ${p})`, k));
      case 'assign': return this.gen(n.rhs, inp, (val) => {
        // reduce path(lhs) as $p (.; setpath($p; $value)), for each output of rhs
        const st = this.fresh('st');
        const v = this.fresh('v');
        return [_`{`, _`  const ${v} = ${val};`, _`  let ${st} = ${inp};`,
          ...indent(this.pgen(n.lhs, inp, _`[]`, (_x, p) => [_`${st} = jq.setpath(${st}, ${p}, ${v});`])),
          ...indent(k(st)), _`}`];
      });
      case 'modify': {
        // jq's _modify: each path of lhs (on the input) gets the first output of f on its current value;
        // paths where f has none are deleted at the end.
        const st = this.fresh('st');
        const dels = this.fresh('dels');
        const body = this.pgen(n.lhs, inp, _`[]`, (_x, path) => {
          const p = this.fresh('p');
          const cur = this.fresh('v');
          const head = [_`const ${p} = ${path};`, _`const ${cur} = jq.getpath(${st}, ${p});`];
          const e = this.expr(n.f, cur);
          if (e !== null) return [_`{`, ...indent([...head, _`${st} = jq.setpath(${st}, ${p}, ${e});`]), _`}`];
          const got = this.fresh('got');
          const saved = this.inReturning;
          this.inReturning = false;
          const token = this.fresh('label');
          const first = this.label(-1, (kk) => this.gen(n.f, cur, kk), small((u) => [_`${st} = jq.setpath(${st}, ${p}, ${u});`, _`${got} = true;`, _`throw ${token};`]), token);
          this.inReturning = saved;
          return [_`{`, ...indent([...head, _`let ${got} = false;`, ...first, _`if (!${got}) ${dels}.push(${p});`]), _`}`];
        });
        return [_`{`, _`  let ${st} = ${inp};`, _`  const ${dels} = [];`, ...indent(body), ...indent(this.bind(_`jq.delpaths(${st}, ${dels})`, k)), _`}`];
      }
      default: throw new Error(`jq compiler: unhandled ${n.k}`);
    }
  }

  /** A def in scope for `rest`: recursive ones become JS functions declared here, in the modes used. */
  private def(fn: FnDef, rest: () => Code[]): Code[] {
    if (!fn.recursive) return rest();
    // A recursive def takes `$` parameters only (passed as values); filter parameters stay with the engine.
    if (fn.params.some((p) => p.var === null)) throw new TooBig();
    const rec: RecFn = { name: this.fresh(`f_${fn.name}_`), modes: new Set(), env: this.env };
    rec.env = { ...this.env, fns: extend(this.env.fns, fn, rec) };
    const code = this.withEnv(rec.env, rest);
    const decls: Code[] = [];
    const done = new Set<string>();
    for (let more = true; more;) {
      more = false;
      for (const mode of [...rec.modes]) {
        if (done.has(mode)) continue;
        done.add(mode);
        more = true;
        decls.push(...this.recBody(rec, fn, mode));
      }
    }
    return [_`{`, ...indent(decls), ...indent(code), _`}`];
  }

  private recBody(rec: RecFn, fn: FnDef, mode: 'v' | 'p'): Code[] {
    const input = this.fresh('input');
    const path = this.fresh('path');
    const kname = this.fresh('k');
    const vals = fn.params.map(() => this.fresh('a'));
    let env = rec.env;
    fn.params.forEach((p, i) => {
      env = { ...env, vars: extend(env.vars, p.var!, vals[i]), params: extend(env.params, p.id, { node: { k: 'var', name: p.name, id: p.var! }, env }) };
      // the parameter's filter form `a` reads the variable: give it an environment that has it
      env.params.get(p.id)!.env = env;
    });
    const saved = this.inReturning;
    this.inReturning = false;
    try {
      // jq.enter/leave bound the recursion (deeper calls go to the engine).
      const guarded = (body: Code[]): Code[] => [_`jq.enter();`, _`try {`, ...indent(body), _`} finally {`, _`  jq.leave();`, _`}`];
      return this.withEnv(env, () => (mode === 'v'
        ? [_`function ${rec.name}(${join([input, kname, ...vals])}) {`, ...indent(guarded(this.gen(fn.body, input, small((v) => [_`${kname}(${v});`])))), _`}`]
        : [_`function ${rec.name}$p(${join([input, path, kname, ...vals])}) {`,
          ...indent(guarded(this.pgen(fn.body, input, path, (v, p) => [_`${kname}(${v}, ${p});`]))), _`}`]));
    } finally {
      this.inReturning = saved;
    }
  }

  /** Evaluates the `$` arguments of a recursive call, the first varying slowest (`a as $a | b as $b | ...`). */
  private recCall(rec: RecFn, args: Node[], inp: Code, call: (name: Name, vals: Code[]) => Code[]): Code[] {
    const vals: Code[] = [];
    const each = (i: number): Code[] => (i === args.length
      ? call(rec.name, vals)
      : this.gen(args[i], inp, (a) => { vals[i] = a; return each(i + 1); }));
    return each(0);
  }

  /** A non-recursive def's body with its parameters bound to the call's arguments. */
  private inline<T>(fn: FnDef, args: Node[], f: (body: Node) => T): T {
    let body = this.bodies.get(fn);
    if (!body) {
      body = fn.body;
      for (let i = fn.params.length - 1; i >= 0; i--) {
        const p = fn.params[i];
        if (p.var !== null) body = { k: 'bind', src: { k: 'param', id: p.id }, name: p.name, id: p.var, body };
      }
      this.bodies.set(fn, body);
    }
    if (++this.steps > MAX_STEPS) throw new TooBig();
    let params = this.env.params;
    fn.params.forEach((p, i) => { params = extend(params, p.id, { node: args[i], env: this.env }); });
    const b = body;
    return this.withEnv({ ...this.env, params }, () => f(b));
  }

  /** k as a JS function value (for recursive calls). */
  private closure(k: K): Code {
    if (this.inReturning) throw new NeedsClosure();
    const v = this.fresh('v');
    return lines([_`(${v}) => {`, ...indent(k(v)), _`}`]);
  }

  private labelOf(id: number): Name {
    const l = this.env.labels.get(id);
    if (!l) throw new TooBig();
    return l;
  }

  /** `label $x | body`: a fresh token per entry; `break $x` throws it, only this label catches it. */
  private label(id: number, body: (k: K) => Code[], k: K, token = this.fresh('label')): Code[] {
    const e = this.fresh('e');
    const kk = this.home(k);
    const inner = this.withEnv({ ...this.env, labels: extend(this.env.labels, id, token) }, () => body(kk));
    return [_`const ${token} = jq.label();`, _`try {`, ...indent(inner), _`} catch (${e}) {`, _`  jq.mustBreak(${e}, ${token});`, _`}`];
  }

  /**
   * Path mode: statements that call k with each output of n and its path from the input (jq's path(f)).
   * Shapes that are not path expressions here are left to the engine (TooBig), so jq's
   * "Invalid path expression" errors never need to be reproduced.
   */
  pgen(n: Node, inp: Code, path: Code, k: PK): Code[] {
    if (++this.steps > MAX_STEPS) throw new TooBig();
    switch (n.k) {
      case 'identity': return k(inp, path);
      case 'index': {
        const at = (key: Code): Code[] => this.pgen(n.target, inp, path, (t, tp) => {
          const v = this.fresh('v');
          const p = this.fresh('p');
          const get = _`${op(n.opt ? 'idxOpt' : 'idx')}(${t}, ${key})`;
          const out = [_`const ${p} = jq.pathAdd(${tp}, ${key});`, ...k(v, p)];
          return n.opt ? [_`const ${v} = ${get};`, _`if (${v} !== undefined) {`, ...indent(out), _`}`] : [_`const ${v} = ${get};`, ...out];
        });
        if (n.key.k === 'lit') return at(_`${n.key.v}`);
        return this.gen(n.key, inp, (key) => this.bind(key, (kv) => at(kv)));
      }
      case 'slice': {
        const bound = (b: Node | null, then: K): Code[] => (b ? this.gen(b, inp, then) : then(_`null`));
        return bound(n.from, (f) => bound(n.to, (to) => this.pgen(n.target, inp, path, (t, tp) => {
          const v = this.fresh('v');
          const p = this.fresh('p');
          const get = _`${op(n.opt ? 'sliceOpt' : 'slice')}(${t}, ${f}, ${to})`;
          const out = [_`const ${p} = jq.pathAdd(${tp}, { start: ${f}, end: ${to} });`, ...k(v, p)];
          return n.opt ? [_`const ${v} = ${get};`, _`if (${v} !== undefined) {`, ...indent(out), _`}`] : [_`const ${v} = ${get};`, ...out];
        })));
      }
      case 'iter': return this.pgen(n.target, inp, path, (t, tp) => {
        const key = this.fresh('key');
        const v = this.fresh('v');
        const p = this.fresh('p');
        return [_`for (const [${key}, ${v}] of ${op(n.opt ? 'entriesOpt' : 'entries')}(${t})) {`,
          _`  jq.tick();`, _`  const ${p} = jq.pathAdd(${tp}, ${key});`, ...indent(k(v, p)), _`}`];
      });
      case 'pipe': return this.pgen(n.l, inp, path, (v, p) => this.pgen(n.r, v, p, k));
      case 'comma': return [...this.pgen(n.l, inp, path, k), ...this.pgen(n.r, inp, path, k)];
      case 'empty': return [];
      case 'error': return this.gen(n, inp, small(() => []));
      case 'if': {
        const branch = (c: Code): Code[] => {
          const otherwise = n.else ? this.pgen(n.else, inp, path, k) : k(inp, path);
          return [_`if (jq.truthy(${c})) {`, ...indent(this.pgen(n.then, inp, path, k)), ...(otherwise.length ? [_`} else {`, ...indent(otherwise)] : []), _`}`];
        };
        return this.gen(n.cond, inp, branch);
      }
      case 'alt': {
        const found = this.fresh('found');
        return [
          _`let ${found} = false;`,
          ...this.pgen(n.l, inp, path, (v, p) => [_`if (jq.truthy(${v})) {`, _`  ${found} = true;`, ...indent(k(v, p)), _`}`]),
          _`if (!${found}) {`, ...indent(this.pgen(n.r, inp, path, k)), _`}`,
        ];
      }
      case 'try': {
        if (n.handler || breaksOut(n.body)) throw new TooBig();
        // `f?` in a path expression: paths before an error are kept (buffered like the value form).
        const a = this.fresh('a');
        const err = this.fresh('e');
        const x = this.fresh('x');
        return [_`const ${a} = new Array();`, _`try {`, ...indent(this.pgen(n.body, inp, path, (v, p) => [_`jq.push(${a}, [${v}, ${p}]);`])),
          _`} catch (${err}) {`, _`  jq.caught(${err});`, _`}`, _`for (const ${x} of ${a}) {`, ...indent(k(_`${x}[0]`, _`${x}[1]`)), _`}`];
      }
      case 'bind': return this.gen(n.src, inp, (v) => [_`{`, ...indent(this.withVar(n.id, n.name, v, () => this.pgen(n.body, inp, path, k))), _`}`]);
      case 'def': return this.def(n.fn, () => this.pgen(n.rest, inp, path, k));
      case 'fcall': {
        const rec = this.env.fns.get(n.fn);
        if (!rec && n.fn.recursive) return this.def(n.fn, () => this.pgen(n, inp, path, k));
        if (!rec) return this.inline(n.fn, n.args, (body) => this.pgen(body, inp, path, this.homeP(k)));
        return this.recCall(rec, n.args, inp, (name, vals) => {
          rec.modes.add('p');
          if (this.inReturning) throw new NeedsClosure();
          const v = this.fresh('v');
          const p = this.fresh('p');
          return [_`${name}$p(${join([inp, path, lines([_`(${v}, ${p}) => {`, ...indent(k(v, p)), _`}`]), ...vals])});`];
        });
      }
      case 'param': {
        const p = this.env.params.get(n.id);
        if (!p) throw new TooBig();
        const kk = this.homeP(k);
        return this.withEnv(p.env, () => this.pgen(p.node, inp, path, kk));
      }
      case 'label': {
        const token = this.fresh('label');
        const e = this.fresh('e');
        const kk = this.homeP(k);
        const inner = this.withEnv({ ...this.env, labels: extend(this.env.labels, n.id, token) }, () => this.pgen(n.body, inp, path, kk));
        return [_`const ${token} = jq.label();`, _`try {`, ...indent(inner), _`} catch (${e}) {`, _`  jq.mustBreak(${e}, ${token});`, _`}`];
      }
      case 'break': return [_`throw ${this.labelOf(n.id)};`];
      case 'getpath': return this.gen(n.p, inp, (pv) => {
        const v = this.fresh('v');
        const p = this.fresh('p');
        return [_`const ${v} = jq.getpath(${inp}, ${pv});`, _`const ${p} = ${path}.concat(${pv});`, ...k(v, p)];
      });
      case 'reduce': case 'foreach': {
        // jq follows the path of the state: supported when the state starts as the input (`.`).
        throw new TooBig();
      }
      default: throw new TooBig();
    }
  }

  private access(how: 'field' | 'at' | 'idx' | 'slice', args: Code[], opt: boolean, k: K): Code[] {
    if (!opt) return this.bind(_`${op(how)}(${join(args)})`, k);
    const v = this.fresh('v');
    return [_`const ${v} = ${op(`${how}Opt`)}(${join(args)});`, _`if (${v} !== undefined) {`, ...indent(k(v)), _`}`];
  }

  // Entries in order; for each, the key then the value (jq checks the key's type after the value).
  private objectGen(entries: { key: Node; value: Node }[], i: number, inp: Code, acc: Code[], k: K): Code[] {
    if (i === entries.length) return this.bind(objectLit(acc), k);
    const { key, value: val } = entries[i];
    if (key.k === 'lit' && typeof key.v === 'string') {
      const name = propName(key.v);
      return this.gen(val, inp, (v) => this.objectGen(entries, i + 1, inp, [...acc, _`${name}: ${v}`], k));
    }
    return this.gen(key, inp, (kv) => this.gen(val, inp, (v) => {
      const name = this.fresh('key');
      return [_`const ${name} = jq.key(${kv});`, ...this.objectGen(entries, i + 1, inp, [...acc, _`[${name}]: ${v}`], k)];
    }));
  }

  // Interpolations vary like jq's left-nested `+`: the last one is outermost.
  private strGen(parts: (string | Node)[], i: number, inp: Code, vals: Map<number, Code>, k: K, f: Code): Code[] {
    if (i < 0) {
      const text = parts.map((p, j) => (typeof p === 'string' ? _`${p}` : _`${f}(${vals.get(j)!})`));
      return this.bind(_`(${join(text, ' + ')})`, k);
    }
    const p = parts[i];
    if (typeof p === 'string') return this.strGen(parts, i - 1, inp, vals, k, f);
    return this.gen(p, inp, (v) => this.strGen(parts, i - 1, inp, new Map(vals).set(i, v), k, f));
  }
}
