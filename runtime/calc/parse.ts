// Parses a math expression with jsep and checks it against a whitelist, producing a small tree
// that both backends (runtime/calc/eval.ts, compiler/calc/compile.ts) walk. Every decision about
// what an expression means is made here or in ops.ts, so the two backends cannot disagree.
// jsep's global settings are left alone (other code may share it): anything it accepts beyond
// the whitelist (`this`, `??`, bitwise, arrays, compound, member calls) is rejected below.
import jsep from 'jsep';
import { ARITY, CalcError, type BinOp, type CalcNode, type FnName } from './node.ts';

export { CalcError, type CalcNode } from './node.ts';

const BIN: Record<string, BinOp | 'and' | 'or'> = {
  '+': 'add', '-': 'sub', '*': 'mul', '/': 'div', '%': 'mod', '**': 'pow',
  '==': 'eq', '===': 'eq', '!=': 'ne', '!==': 'ne', '<': 'lt', '<=': 'le', '>': 'gt', '>=': 'ge',
  '&&': 'and', '||': 'or',
};
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);
const MAX_LEN = 4000;
const MAX_DEPTH = 64;

export function parseCalc(src: string): CalcNode {
  const fail = (why: string): never => {
    const shown = String(src).length > 80 ? `${String(src).slice(0, 79)}…` : String(src);
    throw new CalcError(`math expression ${JSON.stringify(shown)}: ${why}`);
  };
  if (typeof src !== 'string' || !src.trim()) fail('is empty');
  if (src.length > MAX_LEN) fail(`is longer than ${MAX_LEN} characters`);
  let ast: jsep.Expression;
  try {
    ast = jsep(src);
  } catch (e) {
    return fail(e instanceof RangeError ? 'is nested too deeply' : (e as Error).message);
  }

  const field = (n: jsep.Expression): CalcNode => {
    const path: Array<string | number> = [];
    while (n.type === 'MemberExpression') {
      const m = n as jsep.MemberExpression;
      const p = m.property as jsep.Expression;
      let seg: string | number | undefined;
      if (!m.computed && p.type === 'Identifier') seg = (p as jsep.Identifier).name;
      else if (m.computed && p.type === 'Literal') {
        const v = (p as jsep.Literal).value;
        if (typeof v === 'string' || (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0)) seg = v;
      }
      if (seg === undefined) fail('a field in brackets must be a quoted name or an index, as in target["unit price"]');
      if (FORBIDDEN.has(String(seg))) fail(`field name "${String(seg)}" is not allowed`);
      path.unshift(seg!);
      n = m.object as jsep.Expression;
    }
    if (n.type !== 'Identifier' || (n as jsep.Identifier).name !== 'target')
      fail(`unknown name ${describe(n)}; fields are read as target.<field>`);
    return { k: 'field', path };
  };

  const walk = (n: jsep.Expression, depth: number): CalcNode => {
    if (depth > MAX_DEPTH) fail('is nested too deeply');
    const sub = (x: unknown) => walk(x as jsep.Expression, depth + 1);
    switch (n.type) {
      case 'Literal': {
        const v = (n as jsep.Literal).value;
        if (typeof v === 'number' && !Number.isFinite(v)) fail(`number ${(n as jsep.Literal).raw} is out of range`);
        if (v !== null && !['number', 'string', 'boolean'].includes(typeof v)) fail('unsupported literal');
        return { k: 'lit', v: v as number | string | boolean | null };
      }
      case 'Identifier':
      case 'MemberExpression':
        return field(n);
      case 'UnaryExpression': {
        const op = (n as jsep.UnaryExpression).operator;
        if (op !== '-' && op !== '!') fail(`operator "${op}" is not supported`);
        return { k: op === '-' ? 'neg' : 'not', a: sub(n.argument) };
      }
      case 'BinaryExpression': {
        const op = (n as jsep.BinaryExpression).operator;
        const k = Object.hasOwn(BIN, op) ? BIN[op] : fail(`operator "${op}" is not supported`);
        const a = sub(n.left), b = sub(n.right);
        // `+` with a string literal or string(...) on either side always concatenates.
        return { k: k === 'add' && (isText(a) || isText(b)) ? 'concat' : k, a, b };
      }
      case 'ConditionalExpression':
        return { k: 'if', c: sub(n.test), t: sub(n.consequent), e: sub(n.alternate) };
      case 'CallExpression': {
        const callee = n.callee as jsep.Expression;
        const name = callee.type === 'Identifier' ? (callee as jsep.Identifier).name : '';
        if (!Object.hasOwn(ARITY, name)) fail(`only ${Object.keys(ARITY).join(', ')} can be called, not ${describe(callee)}`);
        const args = (n as jsep.CallExpression).arguments;
        const [lo, hi] = ARITY[name as FnName];
        if (args.length < lo || args.length > hi) fail(`${name}() takes ${lo === hi ? lo : hi === Infinity ? `at least ${lo}` : `${lo} to ${hi}`} argument(s)`);
        return { k: 'call', fn: name as FnName, args: args.map(sub) };
      }
      default:
        return fail(`${n.type === 'Compound' ? 'must be a single expression' : `${describe(n)} is not supported`}`);
    }
  };
  return walk(ast, 0);
}

function isText(n: CalcNode): boolean {
  return (n.k === 'lit' && typeof n.v === 'string') || (n.k === 'call' && n.fn === 'string') || n.k === 'concat'
    || (n.k === 'if' && isText(n.t) && isText(n.e));
}

function describe(n: jsep.Expression): string {
  if (n.type === 'Identifier') return `"${(n as jsep.Identifier).name}"`;
  if (n.type === 'ThisExpression') return '"this"';
  if (n.type === 'MemberExpression') return 'a method';
  return `${n.type.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()}`;
}
