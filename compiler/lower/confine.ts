// Lowering's half of the request-value rule (compiler/markers/request-values.ts): places where a
// marker's value is confined at run time to one unit get their marker tagged (or wrapped) here, so
// both paths call the same runtime operation. MQTT topics: each marker fills one level
// (runtime/values/topic.ts). Document filters: a marker at a field is matched as a literal ($eq).
import type { Node, Ref } from '../../runtime/ir.ts';
import { isConfigRoot } from '../markers/request-values.ts';
import { lowerValue } from './values.ts';

/** `topics` (one string or a list): every marker inside a topic template fills one level. */
export function topicLevels(n: Node): Node {
  if (n.k === 'tmpl') return { k: 'tmpl', parts: n.parts.map((p) => (typeof p === 'string' ? p : ({ ...p, esc: 'topic-level' } as Ref))) };
  if (n.k === 'arr') return { k: 'arr', items: n.items.map(topicLevels) };
  return n;
}

/** A document filter: a field whose value is one marker (not a configuration value) compares with
 *  `$eq`, so a request's `{"$ne": null}` is a value to match, never an operator. Operators apply only
 *  where the config writes them; lists of filters ($and, $or) are walked. */
export function literalFilter(f: unknown): unknown {
  return wrapFields(f, 0);
}

function wrapFields(f: unknown, depth: number): unknown {
  if (depth > 32 || f === null || typeof f !== 'object' || Array.isArray(f)) return f;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(f)) {
    const value = k === '$and' || k === '$or' ? (Array.isArray(v) ? v.map((x) => wrapFields(x, depth + 1)) : v) : k.startsWith('$') ? v : wholeMarker(v) ? { $eq: v } : v;
    Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** A string that is exactly one marker of a root the operator does not configure. */
function wholeMarker(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  const n = lowerValue(v);
  return n.k === 'ref' && !isConfigRoot(n.ref.root);
}
