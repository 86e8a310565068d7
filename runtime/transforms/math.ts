// `math`: computes fields from expressions over `target.<field>` and writes them onto a copy of
// each object the `target` selects (or of each object in a selected array; util/target.ts). Expressions run in map order and each
// sees the fields written before it (subtotal, then total from subtotal).
import type { Scope } from '../scope.ts';
import * as calc from '../calc/ops.ts';
import { roundDecimal, roundNumber, MAX_PLACES } from '../calc/round.ts';
import { TransformError } from './types.ts';
import { setOwn } from './util/path.ts';
import { atTargets, type Targets } from './util/target.ts';
import { copyRecord, detached } from '../values/build.ts';

export interface MathArgs {
  expressions: Array<[name: string, calc: (target: unknown) => unknown]>;
  target?: Targets;
  decimal_places?: number | string;
  to_string?: boolean;
  eval_type?: 'int' | 'float' | 'string' | 'bool';
}

/** eval_type: int truncates toward zero (like a cast); bool reads "false"/"0"/"" as false. */
function convert(v: unknown, type: MathArgs['eval_type']): unknown {
  if (type === undefined || type === 'string') return v;
  if (type === 'bool') return typeof v === 'string' ? !['', '0', 'false'].includes(v.trim().toLowerCase()) : calc.truthy(v);
  const n = calc.fn.number(v);
  // Stryker disable next-line ArithmeticOperator: equivalent in a response, JSON writes -0 as 0
  return Number.isFinite(n) ? (type === 'int' ? Math.trunc(n) + 0 : n) : null;
}

export function run(data: unknown, args: MathArgs, _s: Scope): unknown {
  const places = args.decimal_places === undefined ? undefined : calc.fn.number(args.decimal_places);
  if (places !== undefined && !(Number.isInteger(places) && places >= 0 && places <= MAX_PLACES))
    throw new TransformError(`math: decimal_places must be a whole number from 0 to ${MAX_PLACES}, got ${JSON.stringify(args.decimal_places)}`);
  const type = args.eval_type;
  if (type !== undefined && !['int', 'float', 'string', 'bool'].includes(type))
    throw new TransformError(`math: eval_type must be int, float, string or bool, got ${JSON.stringify(type)}`);
  const asText = args.to_string === true || type === 'string';

  const finish = (v: unknown): unknown => {
    if (v === null) return null; // a NaN or missing result stays null whatever the eval_type
    v = convert(v, type);
    if (typeof v !== 'number') return type === 'string' ? calc.str(v) : v;
    if (places === undefined) return asText ? String(v) : v;
    if (!asText) return roundNumber(v, places) ?? v;
    const r = roundDecimal(v, places);
    return r ? r.text : String(v);
  };
  const apply = (obj: unknown): unknown => {
    // Only objects get fields; other array elements pass through unchanged.
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return obj;
    const out = copyRecord(obj as Record<string, unknown>);
    for (const [name, f] of args.expressions) setOwn(out, name, finish(detached(f(out), out)));
    return out;
  };

  // Each selected object gets the fields; a selected array, each of its objects.
  return atTargets('math', data, args.target, (node) => (Array.isArray(node) ? node.map(apply) : apply(node)));
}
