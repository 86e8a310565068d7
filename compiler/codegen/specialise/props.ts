// Reading a transform's lowered arguments at compile time.
import type { Node } from '../../../runtime/ir.ts';

/** The props of an `obj` argument node, or undefined when the argument is not an object of only `allowed` keys. */
export function propsOf(n: Node, allowed: string[]): Map<string, Node> | undefined {
  // Arguments without markers or functions arrive as one literal object.
  const props: Array<[string, Node]> | undefined = n.k === 'obj' ? n.props
    : n.k === 'lit' && n.v !== null && typeof n.v === 'object' && !Array.isArray(n.v) ? Object.entries(n.v).map(([k, v]) => [k, { k: 'lit', v }])
    : undefined;
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
