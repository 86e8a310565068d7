// math → each target record copied once and its fields computed in order by the expressions'
// compiled functions, rounded where decimal_places says; no argument object read per run.
// to_string and eval_type keep the generic transform (their conversions are not worth a copy).
import type { Node, TransformIR } from '../../../runtime/ir.ts';
import { MAX_PLACES } from '../../../runtime/calc/round.ts';
import { Code, member } from '../../emit/code.ts';
import type { Emitter } from '../emitter.ts';
import { emitNode } from '../emit-node.ts';
import { propsOf } from './props.ts';

export function specialiseMath(e: Emitter, t: TransformIR, owner: string[]): Code | undefined {
  const p = propsOf(t.args, ['target', 'expressions', 'decimal_places']);
  // A JSONPath target applies to every node it selects (runtime/transforms/util/target.ts): that form
  // keeps the generic transform, so both paths share one implementation of the rule.
  if (!p || p.get('target')) return undefined;
  const exprs = p.get('expressions');
  if (exprs?.k !== 'arr') return undefined;
  const pairs = exprs.items.map((x) => (x.k === 'arr' && x.items.length === 2 && x.items[0]!.k === 'lit' && typeof x.items[0]!.v === 'string' ? x.items as [Node, Node] : undefined));
  if (pairs.some((x) => x === undefined)) return undefined;
  const dp = p.get('decimal_places');
  const places = dp?.k === 'lit' && Number.isInteger(dp.v) && (dp.v as number) >= 0 && (dp.v as number) <= MAX_PLACES ? (dp.v as number) : undefined;
  if (dp && places === undefined) return undefined; // the generic transform reports it

  const sets = pairs.map((pair, i) => {
    const [nameNode, calcNode] = pair!;
    const field = (nameNode as { v: string }).v;
    const f = emitNode(e, calcNode, [...owner, 'expressions', String(i), field]);
    const v = `${f.text}(out)`;
    const value = places === undefined ? v : `rt.sp.rounded(${v}, ${places})`;
    // A field named __proto__ is data: set as an own property.
    return field === '__proto__' ? `    rt.sp.setOwn(out, "__proto__", ${value});` : `    out${member(field)} = ${value};`;
  });
  const name = e.names.make(...owner, 'specialised');
  // The scalar-data error uses the generic transform's words (util/target.ts), so both paths answer alike.
  e.declare(owner, 'math, specialised', new Code(
    `function ${name.text}(d: unknown, _a: unknown, _s: rt.Scope): unknown {\n` +
    `  const target = d;\n` +
    `  if (target === null || target === undefined) return d;\n` +
    `  if (typeof target !== "object") throw new rt.sp.TransformError(\`math: the data is a \${typeof target}, not an object or array\`);\n` +
    `  const apply = (obj: unknown): unknown => {\n` +
    `    if (obj === null || typeof obj !== "object" || Array.isArray(obj)) return obj;\n` +
    `    const out = rt.sp.copyRecord(obj as Record<string, unknown>);\n` +
    `${sets.join('\n')}\n` +
    `    return out;\n  };\n` +
    `  return Array.isArray(target) ? target.map(apply) : apply(target);\n}`));
  return name;
}
