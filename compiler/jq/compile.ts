// Compiles the common jq subset to a plain JS function `(input) => unknown[]` (all outputs, in order).
// Runtime helpers are referenced as `jq.<name>` (runtime/jq/ops.ts). Evaluation order follows jq
// (index keys before targets, right operands before left, streams depth-first), so outputs and the
// first error are the same as the engine's. Program strings reach the code only through the `_` builder.
import { _, Code, join, Name } from '../emit/code.ts';
import type { Node } from './ast.ts';
import { UNARY, WITH_FILTER, WITH_VALUE } from './builtins.ts';
import { parseJq } from './parse.ts';

// Beyond these (pathological nesting), the engine is the better choice.
const MAX_CODE = 200_000;
const MAX_STEPS = 50_000;
/** Thrown when a program is too big, or has a shape left to the engine. */
class TooBig extends Error {}

const OPS: Record<string, string> = { '+': 'add', '-': 'sub', '*': 'mul', '/': 'div', '%': 'mod', '==': 'eq', '!=': 'ne', '<': 'lt', '<=': 'le', '>': 'gt', '>=': 'ge' };

/** A runtime helper of runtime/jq/ops.ts by name. */
const op = (name: string): Code => _`jq.${new Name(name)}`;

/**
 * jq 1.8 keeps input and program numbers as literals, and negating a literal zero gives 0 while a computed
 * zero (arithmetic) gives -0: `-(arithmetic)` negates plainly, other operands through jq.neg.
 */
const negOp = (e: Node): Code => op(e.k === 'bin' && ['+', '-', '*', '/', '%'].includes(e.op) ? 'negComputed' : 'neg');

/** The JS name of a jq variable binding. */
const varName = (n: { name: string; id: number }): Name => new Name(`$${n.name}_${n.id}`);

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
      : [_`const out = new Array();`, ...g.gen(ast, input, small((v) => [_`out.push(${v});`])), _`return out;`];
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

const indent = (ls: Code[]): Code[] => ls.map((l) => _`  ${l}`);
const lines = (ls: Code[]): Code => join(ls, '\n');
/** An object literal as an arrow function's body needs parentheses. */
const arrowBody = (e: Code): Code => (e.text.startsWith('{') ? _`(${e})` : e);
const SIMPLE = /^(?:[A-Za-z_$][\w$]*|-?[0-9][0-9.e+-]*|"(?:[^"\\]|\\.)*")$/;
const NEVER_THROW = new Set(['type', 'tostring', 'tojson', 'not']);

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

class Gen {
  private n = 0;
  private steps = 0;
  /** Inside first-output / predicate functions continuations `return`, so they are never hoisted. */
  private inReturning = false;

  private fresh(prefix: string): Name {
    return new Name(`${prefix}${++this.n}`);
  }

  /** A JS expression for n when it has exactly one output (or throws), else null. */
  expr(n: Node, inp: Code): Code | null {
    switch (n.k) {
      case 'identity': return inp;
      case 'var': return varName(n);
      case 'lit': return _`${n.v}`;
      case 'str': {
        if (n.parts.filter((p) => typeof p !== 'string' && canThrow(p)).length > 1) return null;
        const parts = n.parts.map((p) => (typeof p === 'string' ? _`${p}` : this.exprTo(p, inp, (e) => _`jq.tostring(${e})`)));
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
    const arg = this.expr(n.args[0], inp);
    return arg === null ? null : _`${op(WITH_VALUE[n.name])}(${inp}, ${arg})`;
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
    if (kind === 'keys') {
      const a = this.fresh('a');
      body = [_`const ${a} = new Array();`, ...this.gen(f, v, small((x) => [_`${a}.push(${x});`])), _`return ${a};`];
    } else {
      this.inReturning = true;
      if (kind === 'first') body = [...this.gen(f, v, small((x) => [_`return ${x};`])), _`return undefined;`];
      else if (kind === 'any') body = [...this.gen(f, v, small((x) => [_`if (jq.truthy(${x})) return true;`])), _`return false;`];
      else body = [...this.gen(f, v, small((x) => [_`if (!jq.truthy(${x})) return false;`])), _`return true;`];
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
        return [_`for (const ${v} of ${op(n.opt ? 'iterOpt' : 'iter')}(${t})) {`, ...indent(k(v)), _`}`];
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
        // Outputs before an error are kept; errors raised after the body (in k) must propagate.
        const a = this.fresh('a');
        const err = this.fresh('e');
        const v = this.fresh('v');
        return [
          _`const ${a} = new Array();`,
          _`try {`,
          ...indent(this.gen(n.body, inp, small((x) => [_`${a}.push(${x});`]))),
          _`} catch (${err}) {`,
          _`  jq.caught(${err});`,
          // The handler sees the error's value; its own errors propagate.
          ...(n.handler ? indent(this.gen(n.handler, _`jq.errorValue(${err})`, small((x) => [_`${a}.push(${x});`]))) : []),
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
        return [_`const ${a} = new Array();`, ...(n.e ? this.gen(n.e, inp, small((v) => [_`${a}.push(${v});`])) : []), ...k(a)];
      }
      case 'object': return this.objectGen(n.entries, 0, inp, [], k);
      case 'str': return this.strGen(n.parts, n.parts.length - 1, inp, new Map(), k);
      case 'call': {
        // Only value arguments can have several outputs here (each gives one result).
        const helper = WITH_VALUE[n.name];
        return this.gen(n.args[0], inp, (a) => this.bind(_`${op(helper)}(${inp}, ${a})`, k));
      }
      case 'range': return this.gen(n.from, inp, (f) => this.gen(n.upto, inp, (u) => {
        const v = this.fresh('v');
        return [_`for (const ${v} of jq.range(${f}, ${u})) {`, ...indent(k(v)), _`}`];
      }));
      case 'bind':
        // A block per binding: a continuation may be emitted twice in one scope.
        return this.gen(n.src, inp, (v) => [_`{`, _`  const ${varName(n)} = ${v};`, ...indent(this.gen(n.body, inp, k)), _`}`]);
      case 'reduce': {
        // For each init output: fold the source's outputs; the update's last output is the new state, none is null.
        const acc = this.fresh('acc');
        const last = this.fresh('last');
        const saved = this.inReturning;
        this.inReturning = false;
        const fold = this.gen(n.src, inp, (x) => [
          _`{`,
          _`  const ${varName(n)} = ${x};`,
          _`  let ${last} = null;`,
          ...indent(this.gen(n.update, acc, small((u) => [_`${last} = ${u};`]))),
          _`  ${acc} = ${last};`,
          _`}`,
        ]);
        this.inReturning = saved;
        // Several init outputs: jq 1.8 folds a `?` source only for the first one; not compiled.
        const a0 = this.expr(n.init, inp);
        if (a0 === null) throw new TooBig();
        return [_`{`, _`  let ${acc} = ${a0};`, ...indent(fold), ...indent(k(acc)), _`}`];
      }
      default: throw new Error(`jq compiler: unhandled ${n.k}`);
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
  private strGen(parts: (string | Node)[], i: number, inp: Code, vals: Map<number, Code>, k: K): Code[] {
    if (i < 0) {
      const text = parts.map((p, j) => (typeof p === 'string' ? _`${p}` : _`jq.tostring(${vals.get(j)!})`));
      return this.bind(_`(${join(text, ' + ')})`, k);
    }
    const p = parts[i];
    if (typeof p === 'string') return this.strGen(parts, i - 1, inp, vals, k);
    return this.gen(p, inp, (v) => this.strGen(parts, i - 1, inp, new Map(vals).set(i, v), k));
  }
}
