// filter → one loop over the array; each condition reads its field once and calls its checks
// directly (no Test outcome, no failure message built for the records left out).
import type { Node, TransformIR } from '../../../runtime/ir.ts';
import { Code, _, lit } from '../../emit/code.ts';
import type { Emitter } from '../emitter.ts';
import { emitNode } from '../emit-node.ts';
import { propsOf } from './props.ts';

export function specialiseFilter(e: Emitter, t: TransformIR, owner: string[]): Code | undefined {
  if (t.async) return undefined; // a condition awaits a jq regex: the generic transform handles it
  const p = propsOf(t.args, ['target', 'conditions']);
  const conds = p?.get('conditions');
  // Fields read by path (the lowering's form); anything else keeps the generic call.
  const plain = (c: Node) => c.k === 'arr' && c.items.length === 2 && (c.items[0]!.k === 'path' || c.items[0]!.k === 'jsonpath');
  if (!p || conds?.k !== 'arr' || !conds.items.every(plain)) return undefined;
  // A JSONPath target applies the loop to every node it selects, through the runtime's one
  // implementation of that rule (runtime/transforms/util/target.ts), as the generic transform does.
  const targetNode = p.get('target');
  const target = targetNode ? emitNode(e, targetNode, [...owner, 'target']).text : 'undefined';
  const notArray = lit(`filter: ${targetNode ? 'the target selects' : 'the data is'} `);
  const lines: string[] = [];
  conds.items.forEach((c, i) => {
    const [field, test] = (c as { items: Node[] }).items as [Node, Node];
    const o = [...owner, 'conditions', String(i)];
    const read = emitNode(e, field, [...o, 'field']);
    lines.push(`    const v${i} = ${read.text}(el);`);
    lines.push(`    if (!(${condition(e, test, o, t.line, `v${i}`).text})) continue;`);
  });
  const name = e.names.make(...owner, 'specialised');
  e.declare(owner, 'filter, specialised', new Code(
    `function ${name.text}(d: unknown, _a: unknown, s: rt.Scope): unknown {\n` +
    `  return rt.sp.atTargets(${lit('filter')}, d, ${target}, (list) => {\n` +
    `  if (!Array.isArray(list)) throw new rt.sp.TransformError(${notArray} + rt.sp.kindOf(list) + ${lit(', not an array')});\n` +
    `  const kept: unknown[] = [];\n` +
    `  for (const el of list) {\n${lines.join('\n')}\n    kept.push(el);\n  }\n` +
    `  return kept;\n  });\n}`));
  return name;
}

/** A Test of the field's value with literal checks: the checks called in order; otherwise the generic test. */
function condition(e: Emitter, test: Node, owner: string[], line: number, v: string): Code {
  const t = test.k === 'test' ? test.test : undefined;
  if (!t || t.value || t.jq !== undefined || t.path || !t.checks.every((c) => c.arg.k === 'lit')) {
    return new Code(`${emitNode(e, test, [...owner, 'test']).text}(${v}, s).ok`);
  }
  return new Code(t.checks.map((c) => {
    const check = e.names.make(...owner, c.op);
    e.decls.push(_`const ${check} = rt.sp.checkOf(${c.op});`);
    return `${check.text}(${v}, ${e.constant((c.arg as { v: unknown }).v, ...owner, c.op).text})`;
  }).join(' && ') || 'true');
}
