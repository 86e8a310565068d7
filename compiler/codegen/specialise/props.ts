// Reading a transform's lowered arguments at compile time.
import type { Node } from '../../../runtime/ir.ts';

/** The entries of an object argument node (arguments without markers arrive as one literal object). */
export function entriesOf(n: Node): Array<[string, Node]> | undefined {
  return n.k === 'obj' ? n.props
    : n.k === 'lit' && n.v !== null && typeof n.v === 'object' && !Array.isArray(n.v) ? Object.entries(n.v).map(([k, v]) => [k, { k: 'lit', v }])
    : undefined;
}

/** The props of an `obj` argument node, or undefined when the argument is not an object of only `allowed` keys. */
export function propsOf(n: Node, allowed: string[]): Map<string, Node> | undefined {
  const props = entriesOf(n);
  if (!props) return undefined;
  const m = new Map(props);
  if (m.size !== props.length || [...m.keys()].some((k) => !allowed.includes(k))) return undefined;
  return m;
}

/** A literal list of distinct strings, or undefined. */
export function stringList(n: Node | undefined): string[] | undefined {
  if (n?.k !== 'lit' || !Array.isArray(n.v) || !n.v.every((x) => typeof x === 'string')) return undefined;
  return new Set(n.v).size === n.v.length ? (n.v as string[]) : undefined;
}

/** Names of top-level fields only: non-empty, without dots (dotted names keep the generic transform). */
export const topLevel = (names: string[]): boolean => names.every((f) => f !== '' && !f.includes('.'));
