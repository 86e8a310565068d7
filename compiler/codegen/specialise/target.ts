// A target (or aggregate's `over`) in its normal form (compiler/jsonpath/records.ts), and the code that
// finds its array and says which elements it picks. The specialised transforms run their loop on that
// array when rt.sp.listAt finds it, and the general target rule otherwise (docs/decisions.md,
// Performance, "Targets by what they select").
import type { Node } from '../../../runtime/ir.ts';
import { _, lit } from '../../emit/code.ts';
import type { Emitter } from '../emitter.ts';
import { recordSet, type RecordSet } from '../../jsonpath/records.ts';

/** The normal form of a `target` / `over` node; undefined when it is none the fast code serves. */
export function recordsOf(n: Node | undefined): RecordSet | undefined {
  if (!n) return undefined;
  if (n.k === 'places' || n.k === 'jsonpath') return recordSet(n.src);
  if (n.k === 'path' && n.segs.length > 0 && n.segs.every((s) => typeof s === 'string')) return recordSet(`$${n.segs.map((s) => `[${JSON.stringify(s)}]`).join('')}`);
  return undefined;
}

/** `rt.sp.listAt(d, …)`: the array, or undefined where the general rule must decide. */
export const listCall = (rs: RecordSet, d = 'd'): string => `rt.sp.listAt(${d}, ${lit(rs.names)}, ${rs.deep})`;
/** `d` with the array replaced by `v`. */
export const putCall = (rs: RecordSet, v: string, d = 'd'): string => `rt.sp.withList(${d}, ${lit(rs.names)}, ${v})`;

/** A `[?…]` pick's test, declared once per transform: `(root) => (el) => boolean`; with `onRecord`, the
 *  test of an element known to be a record (a fused loop's). */
export function declareWhere(e: Emitter, rs: RecordSet | undefined, owner: string[], onRecord = false): string | undefined {
  if (rs?.pick?.k !== 'where') return undefined;
  const name = e.names.make(...owner, onRecord ? 'where_on_record' : 'where');
  e.declare(owner, `JSONPath filter of the target${onRecord ? ', on a record' : ''}`, _`const ${name} = ${onRecord ? rs.pick.onRecord : rs.pick.code};`);
  return name.text;
}

/** The elements a pick selects: lines before the loop (over `list`, the data `d`; their names end in
 *  `suffix`), and the test of element `el` at index `i`; undefined for the whole array. */
export function pickCode(rs: RecordSet, where: string | undefined, suffix = ''): { before: string[]; test: (i: string, el: string) => string } | undefined {
  const p = rs.pick;
  if (!p) return undefined;
  const set = `picked${suffix}`;
  switch (p.k) {
    case 'all': return { before: [], test: () => 'true' };
    case 'positions': return { before: [`const ${set} = rt.sp.positions(list.length, ${lit(p.parts)});`], test: (i) => `${set}.has(${i})` };
    case 'where': return { before: [`const picks${suffix} = ${where!}(d);`], test: (_i, el) => `picks${suffix}(${el})` };
  }
}
