// Compiles RFC 9535 JSONPaths (parsed by json-p3, runtime/jsonpath/env.ts) and dotted paths (items.0.name)
// to a JS function `(root) => unknown[]` that calls runtime/jsonpath/ops.ts as `jp`. Every segment,
// selector and filter compiles; a path json-p3 refuses returns null (the caller reports or falls back).
// Names and strings enter the code only through the `_` builder.
import { jsonpath } from 'json-p3';
import { env, isJsonPath } from '../../runtime/jsonpath/env.ts';
import { dottedSegments } from '../../runtime/jsonpath/query.ts';
import { _, Code, join, Name } from '../emit/code.ts';
import { plainKey } from '../emit/plain-key.ts';

export type Query = ReturnType<typeof env.compile>;
type Segment = Query['segments'][number];
export type Selector = Segment['selectors'][number];
type Expr = InstanceType<typeof jsonpath.expressions.LogicalExpression>['expression'];
type Sink = (x: Code) => Code;

const S = jsonpath.selectors;
const E = jsonpath.expressions;

class Unsupported extends Error {}

/** `single`: at most one match (a singular query). The code is parenthesised, ready to call. */
export function compileJsonPath(src: string): { code: Code; single: boolean } | null {
  if (!isJsonPath(src)) {
    const e = dottedSegments(src).reduce((acc: Code, s) => _`jp.dot(${acc}, ${s})`, _`root`);
    return { code: _`((root) => jp.one(${e}))`, single: true };
  }
  let q: Query;
  try {
    q = env.compile(src);
  } catch {
    return null;
  }
  try {
    return new Gen().query(q);
  } catch (e) {
    if (e instanceof Unsupported) return null;
    throw e;
  }
}

/** A filter selector's test (`[?…]`) as `(root) => (x) => boolean`, the code a compiled path runs for
 *  each candidate; `usesRoot` when it reads `$` (the whole data) as well as `@`. With `record`, the
 *  test of a candidate known to be a record (an object, not an array): `@.name` of a plain name is its
 *  property (compiler/emit/plain-key.ts), without jp.prop's own-property test, which measured half the
 *  time of a fused loop picking by `[?@.price > 10]` (node 20). */
export function compileWhere(sel: Selector, o: { record?: boolean } = {}): { code: Code; usesRoot: boolean } | null {
  if (!(sel instanceof S.FilterSelector)) return null;
  const x = new Name('x');
  const g = new Gen(o.record ? x : undefined);
  let test: Code;
  try {
    test = g.test(sel.expression.expression, x);
  } catch (e) {
    if (e instanceof Unsupported) return null;
    throw e;
  }
  const type = new Code(o.record ? 'rt.Rec' : 'unknown');
  return { code: _`((root: unknown) => {\n${join(g.helpers, '\n')}\nreturn (${x}: ${type}): boolean => ${test};\n})`, usesRoot: g.usesRoot };
}

const singular = (segs: readonly Segment[]): boolean =>
  segs.every((s) => s instanceof jsonpath.JSONPathSegment && !isDescendant(s) && s.selectors.length === 1 &&
    (s.selectors[0] instanceof S.NameSelector || s.selectors[0] instanceof S.IndexSelector));

const isDescendant = (s: Segment): boolean => s.constructor.name === 'DescendantSegment';

class Gen {
  private n = 0;
  helpers: Code[] = [];
  usesRoot = false;

  /** `record`: the name of a candidate known to be a record (compileWhere's `record`). */
  constructor(private readonly record?: Name) {}

  private fresh(prefix: string): Name {
    return new Name(`${prefix}${++this.n}`);
  }

  query(q: Query): { code: Code; single: boolean } {
    if (singular(q.segments)) return { code: _`((root) => jp.one(${this.chain(q.segments, _`root`)}))`, single: true };
    const body = this.segments(q.segments, 0, _`root`, (x) => _`out.push(${x});`);
    const code = _`((root) => {\n${join(this.helpers, '\n')}\nconst out = new Array();\n${body}\nreturn out;\n})`;
    return { code, single: false };
  }

  /** A singular query as one expression: its value or undefined. */
  private chain(segs: readonly Segment[], from: Code): Code {
    return segs.reduce((acc, s) => {
      const sel = s.selectors[0];
      if (!(sel instanceof S.NameSelector)) return _`jp.at(${acc}, ${(sel as InstanceType<typeof S.IndexSelector>).index})`;
      return acc === this.record && plainKey(sel.name) ? _`${acc}[${sel.name}]` : _`jp.prop(${acc}, ${sel.name})`;
    }, from);
  }

  /** Statements running `sink` on every node that segments i.. select from `v`. */
  private segments(segs: readonly Segment[], i: number, v: Code, sink: Sink): Code {
    if (i === segs.length) return sink(v);
    const seg = segs[i];
    let decl = _``;
    let next: Sink = (x) => this.segments(segs, i + 1, x, sink);
    if (seg.selectors.length > 1) {
      // Several selectors share one continuation instead of copying it.
      const k = this.fresh('k');
      const x = this.fresh('x');
      decl = _`const ${k} = jp.step((${x}) => {\n${next(x)}\n});\n`;
      next = (y) => _`${k}(${y});`;
    }
    const on = (node: Code) => join(seg.selectors.map((s) => this.selector(s, node, next)), '\n');
    if (!isDescendant(seg)) return _`${decl}${on(v)}`;
    const d = this.fresh('d');
    return _`${decl}for (const ${d} of jp.descend(${v})) {\n${on(d)}\n}`;
  }

  private selector(s: Selector, v: Code, next: Sink): Code {
    const x = this.fresh('v');
    if (s instanceof S.NameSelector) return _`{\nconst ${x} = jp.prop(${v}, ${s.name});\nif (${x} !== undefined) {\n${next(x)}\n}\n}`;
    if (s instanceof S.IndexSelector) return _`{\nconst ${x} = jp.at(${v}, ${s.index});\nif (${x} !== undefined) {\n${next(x)}\n}\n}`;
    if (s instanceof S.WildcardSelector) return _`for (const ${x} of jp.values(${v})) {\n${next(x)}\n}`;
    if (s instanceof S.SliceSelector) return _`for (const ${x} of jp.slice(${v}, ${s.start}, ${s.stop}, ${s.step})) {\n${next(x)}\n}`;
    if (s instanceof S.FilterSelector) return _`for (const ${x} of jp.values(${v})) {\nif (${this.test(s.expression.expression, x)}) {\n${next(x)}\n}\n}`;
    throw new Unsupported(s.constructor.name);
  }

  /** A filter expression as a boolean. */
  test(e: Expr, cur: Code): Code {
    if (e instanceof E.LogicalExpression) return this.test(e.expression, cur);
    if (e instanceof E.PrefixExpression && e.operator === '!') return _`!(${this.test(e.right, cur)})`;
    if (e instanceof E.InfixExpression) {
      if (e.operator === '&&' || e.operator === '||') return _`(${this.test(e.left, cur)} ${new Code(e.operator)} ${this.test(e.right, cur)})`;
      const num = this.numCmp(e, cur);
      if (num) return num;
      return _`jp.cmp(${this.value(e.left, cur)}, ${e.operator}, ${this.value(e.right, cur)})`;
    }
    if (e instanceof E.FilterQuery) {
      return singular(e.path.segments) ? _`(${this.chain(e.path.segments, this.base(e, cur))} !== undefined)` : _`jp.truthyList(${this.nodes(e, cur)})`;
    }
    if (e instanceof E.FunctionExtension && (e.name === 'match' || e.name === 'search')) {
      const [a, b] = e.args;
      return _`jp.${new Name(e.name === 'match' ? 'fnMatch' : 'fnSearch')}(${this.value(a, cur)}, ${this.value(b, cur)})`;
    }
    throw new Unsupported(`test ${e.constructor.name}`);
  }

  /** An ordering of a singular query and a number literal (`@.price > 10`, `10 <= @.qty`): a number
   *  compared directly (jp.numGt...), anything else false, as jp.cmp answers; undefined otherwise. */
  private numCmp(e: InstanceType<typeof E.InfixExpression>, cur: Code): Code | undefined {
    const FLIP: Record<string, string> = { '<': '>', '>': '<', '<=': '>=', '>=': '<=' };
    const NAME: Record<string, string> = { '<': 'numLt', '>': 'numGt', '<=': 'numLe', '>=': 'numGe' };
    const single = (x: Expr) => x instanceof E.FilterQuery && singular(x.path.segments);
    const numLit = (x: Expr) => x instanceof E.NumberLiteral && Number.isFinite(x.value);
    if (!Object.hasOwn(NAME, e.operator)) return undefined;
    let [q, n, op] = [e.left, e.right, e.operator];
    if (numLit(q) && single(n)) [q, n, op] = [n, q, FLIP[op]!];
    if (!single(q) || !numLit(n)) return undefined;
    const fq = q as InstanceType<typeof E.FilterQuery>;
    return _`jp.${new Name(NAME[op]!)}(${this.chain(fq.path.segments, this.base(fq, cur))}, ${(n as InstanceType<typeof E.NumberLiteral>).value})`;
  }

  /** A comparable value (NOTHING for an empty query). */
  private value(e: Expr, cur: Code): Code {
    if (e instanceof E.NullLiteral) return _`null`;
    if (e instanceof E.BooleanLiteral || e instanceof E.StringLiteral || e instanceof E.NumberLiteral) return _`${e.value}`;
    if (e instanceof E.FilterQuery) {
      return singular(e.path.segments) ? _`jp.some(${this.chain(e.path.segments, this.base(e, cur))})` : _`jp.unpack(${this.nodes(e, cur)})`;
    }
    if (e instanceof E.FunctionExtension) {
      const [a] = e.args;
      if (e.name === 'length') return _`jp.fnLength(${this.value(a, cur)})`;
      if (e.name === 'count') return _`jp.fnCount(${this.nodes(a, cur)})`;
      if (e.name === 'value') return _`jp.fnValue(${this.nodes(a, cur)})`;
    }
    throw new Unsupported(`value ${e.constructor.name}`);
  }

  private base(e: Expr, cur: Code): Code {
    if (!(e instanceof E.RootQuery)) return cur;
    this.usesRoot = true;
    return _`root`;
  }

  /** A query's node list, through a helper declared once at the top. */
  private nodes(e: Expr, cur: Code): Code {
    if (!(e instanceof E.FilterQuery)) throw new Unsupported(`nodes ${e.constructor.name}`);
    const h = this.fresh('q');
    const v = this.fresh('n');
    const body = this.segments(e.path.segments, 0, v, (x) => _`found.push(${x});`);
    this.helpers.push(_`const ${h} = jp.query((${v}) => {\nconst found = new Array();\n${body}\nreturn found;\n});`);
    return _`${h}(${this.base(e, cur)})`;
  }
}
