// post_transforms → TransformIR[]: each field becomes a value or a precompiled function, as the
// transform's spec (runtime/transforms/specs.ts, a table that loads no implementation) declares.
import type { Json, Node, TransformIR } from '../../runtime/ir.ts';
import type { FieldKind } from '../../runtime/transforms/types.ts';
import { specOf, transformSpecs } from '../../runtime/transforms/specs.ts';
import { gateMessage } from '../../runtime/transforms/util/features.ts';
import { mayRunRegex } from '../../runtime/jq/uses-regex.ts';
import { lowerTest } from './tests.ts';
import { lowerValue } from './values.ts';
import { segments } from '../markers/parse.ts';
import type { Test, Transform } from '../schema/config-types.ts';
import { LowerError } from './error.ts';

/** What lowering transforms needs: YAML lines, and the config-wide gate of the heavy transforms. */
export interface TransformCtx {
  lineOf: (p: Array<string | number>) => number;
  features: Record<string, boolean>;
}

export function lowerTransforms(list: Transform[] | undefined, at: Array<string | number>, tx: TransformCtx): TransformIR[] {
  const lineOf = tx.lineOf;
  if (!Array.isArray(list)) return [];
  return list.map((t, i) => {
    const entries = Object.entries(t);
    const [op, value] = entries[0] ?? ['', undefined];
    const spec = specOf(op);
    if (!spec || entries.length !== 1) {
      throw new LowerError(`unknown transform "${op}"`, [...at, i], `one transform per list item; known: ${Object.keys(transformSpecs).join(', ')}`);
    }
    const gated = gateMessage(op, tx.features);
    if (gated) throw new LowerError(gated, [...at, i, op], `remove the transform, or set features.${op}: true`);
    const isObj = value !== null && typeof value === 'object' && !Array.isArray(value);
    let args: Node;
    if (spec.self) args = lowerField(spec.self, value, [...at, i, op], tx);
    else if (isObj && spec.fields) {
      const props = Object.entries(value as Record<string, unknown>).map(
        ([k, v]) => [k, lowerField(spec.fields![k] ?? 'value', v, [...at, i, op, k], tx)] as [string, Node],
      );
      // All constant: fold the lowered literals (not the raw value: 'literal' fields stay uninterpolated).
      args = props.every(([, n]) => n.k === 'lit')
        ? { k: 'lit', v: Object.fromEntries(props.map(([k, n]) => [k, (n as { v: Json }).v])) }
        : { k: 'obj', props };
    } else args = lowerValue(value);
    const ir: TransformIR = { op, args, line: lineOf([...at, i]) };
    if (spec.async || hasAsyncChain(args)) ir.async = true;
    return ir;
  });
}

export function lowerPath(src: string): Node {
  if (src.startsWith('$') && !/^\$(\.[A-Za-z_][\w-]*|\[\d+\])*$/.test(src)) return { k: 'jsonpath', src, first: true };
  return { k: 'path', src, segs: segments(src.replace(/^\$\.?/, '').replace(/\[(\d+)\]/g, '.$1')) };
}

function lowerField(kind: FieldKind, v: unknown, at: Array<string | number>, tx: TransformCtx): Node {
  const str = (what: string): string => {
    if (typeof v !== 'string') throw new LowerError(`expected ${what} text`, at);
    return v;
  };
  switch (kind) {
    case 'value': return lowerValue(v);
    case 'literal': return { k: 'lit', v: v as never };
    case 'jq': return { k: 'jq', src: str('a jq program') };
    case 'jsonpath': return { k: 'jsonpath', src: str('a JSON path') };
    case 'places': return { k: 'places', src: str('a JSON path') };
    case 'path': return lowerPath(str('a path'));
    case 'test': return { k: 'test', test: lowerTest(v as Test) };
    case 'tests': return { k: 'arr', items: entries(v, at).map(([p, t]) => ({ k: 'arr', items: [lowerPath(p), { k: 'test', test: lowerTest(t as Test) }] })) };
    case 'calcs': return { k: 'arr', items: entries(v, at).map(([name, e]) => ({ k: 'arr', items: [{ k: 'lit', v: name }, { k: 'calc', src: String(e) }] })) };
    case 'chains': return { k: 'arr', items: entries(v, at).map(([key, list]) => ({ k: 'arr', items: [{ k: 'lit', v: key }, { k: 'chain', steps: lowerTransforms(list as Transform[], [...at, key], tx) }] })) };
  }
}

function entries(v: unknown, at: Array<string | number>): Array<[string, unknown]> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new LowerError('expected a mapping', at);
  return Object.entries(v);
}

/** A nested chain that awaits, or a jq leaf that may run a regex (it runs off the main thread, awaited). */
function hasAsyncChain(n: Node): boolean {
  if (n.k === 'chain') return n.steps.some((t) => t.async === true);
  if (n.k === 'jq') return mayRunRegex(n.src);
  if (n.k === 'test') return n.test.jq !== undefined && mayRunRegex(n.test.jq);
  if (n.k === 'arr') return n.items.some(hasAsyncChain);
  if (n.k === 'obj') return n.props.some(([, x]) => hasAsyncChain(x));
  return false;
}
