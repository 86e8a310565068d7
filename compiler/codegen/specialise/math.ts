// math → each target record copied once and its fields computed in order by the expressions'
// compiled functions, rounded where decimal_places says; no argument object read per run.
// to_string and eval_type keep the generic transform (their conversions are not worth a copy).
import type { Node, TransformIR } from '../../../runtime/ir.ts';
import { MAX_PLACES } from '../../../runtime/calc/round.ts';
import { parseCalc, type CalcNode } from '../../../runtime/calc/parse.ts';
import { Code, lit, member } from '../../emit/code.ts';
import type { Emitter } from '../emitter.ts';
import { emitNode } from '../emit-node.ts';
import { propsOf } from './props.ts';
import { declareWhere, listCall, pickCode, putCall, recordsOf } from './target.ts';
import type { RecordSet } from '../../jsonpath/records.ts';

/** One expression: the field it writes, its compiled function, and the top-level fields it reads ('all' when it reads `target` whole). */
export interface MathSet { field: string; fn: string; reads: Set<string> | 'all' }
export interface MathPlan { op: 'math'; target: Node | undefined; targetCode: string; records: RecordSet | undefined; where: string | undefined; places: number | undefined; sets: MathSet[] }

export function planMath(e: Emitter, t: TransformIR, owner: string[]): MathPlan | undefined {
  const p = propsOf(t.args, ['target', 'expressions', 'decimal_places']);
  if (!p) return undefined;
  const exprs = p.get('expressions');
  if (exprs?.k !== 'arr') return undefined;
  const pairs = exprs.items.map((x) => (x.k === 'arr' && x.items.length === 2 && x.items[0]!.k === 'lit' && typeof x.items[0]!.v === 'string' && x.items[1]!.k === 'calc' ? x.items as [Node, Node] : undefined));
  if (pairs.some((x) => x === undefined)) return undefined;
  const dp = p.get('decimal_places');
  const places = dp?.k === 'lit' && Number.isInteger(dp.v) && (dp.v as number) >= 0 && (dp.v as number) <= MAX_PLACES ? (dp.v as number) : undefined;
  if (dp && places === undefined) return undefined; // the generic transform reports it
  const target = p.get('target');
  const targetCode = target ? emitNode(e, target, [...owner, 'target']).text : 'undefined';
  const sets = pairs.map((pair, i) => {
    const [nameNode, calcNode] = pair!;
    const field = (nameNode as { v: string }).v;
    const fn = emitNode(e, calcNode, [...owner, 'expressions', String(i), field]).text;
    return { field, fn, reads: readsOf((calcNode as { src: string }).src) };
  });
  const records = recordsOf(target);
  return { op: 'math', target, targetCode, records, where: declareWhere(e, records, owner), places, sets };
}

/** The value expression of one expression over the record `rec`, rounded where decimal_places says. */
export function mathValue(plan: MathPlan, set: MathSet, rec: string): string {
  // Only an expression reading `target` whole can give the record itself (runtime/values/build.ts detached).
  const v = set.reads === 'all' ? `rt.sp.detached(${set.fn}(${rec}), ${rec})` : `${set.fn}(${rec})`;
  return plan.places === undefined ? v : `rt.sp.rounded(${v}, ${plan.places})`;
}

/** Writing a field onto a record we own; a field named __proto__ is data: set as an own property. */
export function writeField(rec: string, field: string, value: string): string {
  return field === '__proto__' ? `rt.sp.setOwn(${rec}, "__proto__", ${value});` : `${rec}${member(field)} = ${value};`;
}

export function emitMath(e: Emitter, plan: MathPlan, owner: string[]): Code {
  const sets = plan.sets.map((set) => `    ${writeField('out', set.field, mathValue(plan, set, 'out'))}`);
  const name = e.names.make(...owner, 'specialised');
  e.declare(owner, 'math, specialised', new Code(
    `function ${name.text}(d: unknown, _a: unknown, _s: rt.Scope): unknown {\n` +
    `  const apply = (obj: unknown): unknown => {\n` +
    `    if (obj === null || typeof obj !== "object" || Array.isArray(obj)) return obj;\n` +
    `    const out = rt.sp.copyRecord(obj as Record<string, unknown>);\n` +
    `${sets.join('\n')}\n` +
    `    return out;\n  };\n` +
    (plan.records ? onRecords(plan.records, plan.where) : '') +
    // A JSONPath target applies to every node it selects, through the runtime's one implementation
    // of that rule (runtime/transforms/util/target.ts), as the generic transform does.
    `  return rt.sp.atTargets(${lit('math')}, d, ${plan.targetCode}, (node) => (Array.isArray(node) ? node.map(apply) : apply(node)));\n}`));
  return name;
}

/** A target naming an array (or picking its elements): the records worked on in place of the target
 *  rule when the array is found; an element the rule would treat otherwise (a scalar, an array) or an
 *  error leaves it to the rule, which decides and reports. */
function onRecords(rs: RecordSet, where: string | undefined): string {
  const pick = pickCode(rs, where);
  const body = pick
    ? [
        ...pick.before,
        'const out = list.slice();',
        'for (let i = 0; i < list.length; i++) {',
        '  const el = list[i];',
        `  if (el === null${pick.test('i', 'el') === 'true' ? '' : ` || !(${pick.test('i', 'el')})`}) continue;`,
        '  if (typeof el !== "object" || Array.isArray(el)) throw rt.sp.UNFUSED;',
        '  out[i] = apply(el);',
        '}',
        `return ${putCall(rs, 'out')};`,
      ]
    : [`return ${putCall(rs, 'list.map(apply)')};`];
  return `  const list = ${listCall(rs)};\n  if (list !== undefined) {\n    try {\n${body.map((l) => `      ${l}`).join('\n')}\n    } catch {\n      // the target rule below decides\n    }\n  }\n`;
}

/** The top-level fields an expression reads (`target.a.b` reads a), or 'all' for `target` itself. */
function readsOf(src: string): Set<string> | 'all' {
  const out = new Set<string>();
  let all = false;
  const walk = (n: CalcNode): void => {
    if (n.k === 'field') {
      if (n.path.length === 0) all = true;
      else out.add(String(n.path[0]));
    } else for (const x of Object.values(n)) {
      if (Array.isArray(x)) x.forEach(walk);
      else if (x !== null && typeof x === 'object') walk(x as CalcNode);
    }
  };
  walk(parseCalc(src));
  return all ? 'all' : out;
}
