// filter → one loop over the array; each condition reads its field once and calls its checks
// directly (no Test outcome, no failure message built for the records left out).
import type { Node, TransformIR } from '../../../runtime/ir.ts';
import { Code, _, lit } from '../../emit/code.ts';
import type { Emitter } from '../emitter.ts';
import { emitNode } from '../emit-node.ts';
import { propsOf } from './props.ts';
import { listCall, putCall, recordsOf } from './target.ts';
import type { RecordSet } from '../../jsonpath/records.ts';

/** A condition: its field (as lowered), the hoisted function reading it, and its test of a value. */
export interface FilterCondition { field: Node; read: string; test: (v: string) => string }
/** `records`: the target names one array (a filter's target selects arrays: a pick of elements is not served). */
export interface FilterPlan { op: 'filter'; target: Node | undefined; targetCode: string; records: RecordSet | undefined; conds: FilterCondition[] }

export function planFilter(e: Emitter, t: TransformIR, owner: string[]): FilterPlan | undefined {
  if (t.async) return undefined; // a condition awaits a jq regex: the generic transform handles it
  const p = propsOf(t.args, ['target', 'conditions']);
  const conds = p?.get('conditions');
  // Fields read by path (the lowering's form); anything else keeps the generic call.
  const plain = (c: Node) => c.k === 'arr' && c.items.length === 2 && (c.items[0]!.k === 'path' || c.items[0]!.k === 'jsonpath');
  if (!p || conds?.k !== 'arr' || !conds.items.every(plain)) return undefined;
  const target = p.get('target');
  const records = recordsOf(target);
  return {
    op: 'filter', target, records: records?.pick ? undefined : records,
    targetCode: target ? emitNode(e, target, [...owner, 'target']).text : 'undefined',
    conds: conds.items.map((c, i) => {
      const [field, test] = (c as { items: Node[] }).items as [Node, Node];
      const o = [...owner, 'conditions', String(i)];
      return { field, read: emitNode(e, field, [...o, 'field']).text, test: condition(e, test, o) };
    }),
  };
}

export function emitFilter(e: Emitter, plan: FilterPlan, owner: string[]): Code {
  // A JSONPath target applies the loop to every node it selects, through the runtime's one
  // implementation of that rule (runtime/transforms/util/target.ts), as the generic transform does;
  // a target naming one array found in the data (target.ts) runs the loop on it directly.
  const notArray = lit(`filter: ${plan.target ? 'the target selects' : 'the data is'} `);
  const lines = plan.conds.flatMap((c, i) => [`    const v${i} = ${c.read}(el);`, `    if (!(${c.test(`v${i}`)})) continue;`]);
  const name = e.names.make(...owner, 'specialised');
  const rs = plan.records;
  const direct = rs ? `  const list = ${listCall(rs)};\n  if (list !== undefined) return ${putCall(rs, 'keep(list)')};\n` : '';
  e.declare(owner, 'filter, specialised', new Code(
    `function ${name.text}(d: unknown, _a: unknown, s: rt.Scope): unknown {\n` +
    `  const keep = (list: unknown[]): unknown[] => {\n` +
    `  const kept: unknown[] = [];\n` +
    `  for (const el of list) {\n${lines.join('\n')}\n    kept.push(el);\n  }\n` +
    `  return kept;\n  };\n` + direct +
    `  return rt.sp.atTargets(${lit('filter')}, d, ${plan.targetCode}, (list) => {\n` +
    `  if (!Array.isArray(list)) throw new rt.sp.TransformError(${notArray} + rt.sp.kindOf(list) + ${lit(', not an array')});\n` +
    `  return keep(list);\n  });\n}`));
  return name;
}

const NUMERIC: Record<string, string> = { is_greater_than: '>', is_greater_than_or_equal_to: '>=', is_less_than: '<', is_less_than_or_equal_to: '<=' };

/** A Test of the field's value with literal checks: the checks called in order; otherwise the generic test. */
function condition(e: Emitter, test: Node, owner: string[]): (v: string) => string {
  const t = test.k === 'test' ? test.test : undefined;
  if (!t || t.value || t.jq !== undefined || t.path || !t.checks.every((c) => c.arg.k === 'lit')) {
    const generic = emitNode(e, test, [...owner, 'test']).text;
    return (v) => `${generic}(${v}, s).ok`;
  }
  const calls = t.checks.map((c) => {
    const check = e.names.make(...owner, c.op);
    e.decls.push(_`const ${check} = rt.sp.checkOf(${c.op});`);
    const v = (c.arg as { v: unknown }).v;
    // A number against a finite number literal compares directly (compareOp's rule for two numbers,
    // NaN included: every comparison with it is false); other values take the check.
    const num = typeof v === 'number' && Number.isFinite(v) && Object.hasOwn(NUMERIC, c.op) ? NUMERIC[c.op] : undefined;
    return { check: check.text, arg: e.constant(v, ...owner, c.op).text, num };
  });
  return (v) => calls.map((c) => (c.num === undefined ? `${c.check}(${v}, ${c.arg})` : `(typeof ${v} === "number" ? ${v} ${c.num} ${c.arg} : ${c.check}(${v}, ${c.arg}))`)).join(' && ') || 'true';
}
