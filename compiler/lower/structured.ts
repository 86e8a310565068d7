// Spec (What the service does, 10): "A config is re-parsed after interpolation." Pipewright reads
// it where a field takes structured data (any JSON value: an action's input, an HTTP body, SQL
// params, document and state values, a publish's data, a lookup's array; or one value or a list:
// email recipients, WebSocket channels, MQTT topics): a string that is exactly
// one marker of the operator's values (secret, var, env and their ap_ forms) is tagged, and its
// text, when a JSON object or array, is read as that value (runtime/values/refs.ts, both paths).
// Request and action values are never re-parsed: they already keep their JSON type, and turning a
// caller's text into structure would let the caller choose a value's shape.
import type { Node } from '../../runtime/ir.ts';
import { sourceOf } from '../markers/request-values.ts';

/** A data field's lowered value with its whole-value operator markers tagged `json`. */
export function structured(n: Node): Node {
  switch (n.k) {
    case 'ref': return n.ref.esc === undefined && operators.has(sourceOf(n.ref.root)) ? { k: 'ref', ref: { ...n.ref, json: true } } : n;
    case 'obj': return { k: 'obj', props: n.props.map(([k, x]) => [k, structured(x)]) };
    case 'arr': return { k: 'arr', items: n.items.map(structured) };
    default: return n;
  }
}

/** The named fields of a lowered block (an `obj` node) tagged as data; other fields as they are. */
export function structuredAt(n: Node, fields: readonly string[]): Node {
  if (n.k !== 'obj') return n;
  return { k: 'obj', props: n.props.map(([k, x]) => [k, fields.includes(k) ? structured(x) : x]) };
}

const operators = new Set(['config', 'secret']);
