// Document filters → a parameterised SQL condition on the `doc` jsonb column. The subset users of
// document stores know: implicit equality (matching inside arrays too), $eq $ne $gt $gte $lt $lte
// $in $nin $exists, and $and / $or. Anything else is refused by name.
import { checkField, isPlain, type Params } from './sql.ts';

const MAX_DEPTH = 16;
const MAX_TERMS = 500;

export const FILTER_OPERATORS = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists', '$and', '$or'];

const CMP: Record<string, string> = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' };

export function whereOf(filter: unknown, p: Params): string {
  let terms = 0;
  const count = () => { if (++terms > MAX_TERMS) throw new Error(`document_operation filter: more than ${MAX_TERMS} conditions`); };

  function doc(f: unknown, depth: number): string {
    if (f === undefined || f === null) return 'TRUE';
    if (!isPlain(f)) throw new Error('document_operation filter: a filter is an object of field conditions');
    if (depth > MAX_DEPTH) throw new Error(`document_operation filter: nested deeper than ${MAX_DEPTH}`);
    const parts: string[] = [];
    for (const [k, v] of Object.entries(f)) {
      count();
      if (k === '$and' || k === '$or') {
        if (!Array.isArray(v) || !v.length) throw new Error(`document_operation filter: ${k} takes a non-empty list of filters`);
        parts.push(`(${v.map((x) => doc(x, depth + 1)).join(k === '$and' ? ' AND ' : ' OR ')})`);
      } else if (k.startsWith('$')) {
        throw new Error(`document_operation filter: unsupported operator ${k} (supported: ${FILTER_OPERATORS.join(', ')})`);
      } else {
        checkField(k, 'filter');
        parts.push(field(`(doc #> ${p.path(k)})`, v));
      }
    }
    return parts.length ? parts.join(' AND ') : 'TRUE';
  }

  function field(x: string, v: unknown): string {
    const ops = isPlain(v) && Object.keys(v).length > 0 && Object.keys(v).every((k) => k.startsWith('$')) ? v : undefined;
    if (!ops) return eq(x, v);
    return Object.entries(ops).map(([op, arg]) => { count(); return operator(x, op, arg); }).join(' AND ');
  }

  /** Equal, or (for a scalar) an element of an array field; null also matches a missing field. */
  function eq(x: string, v: unknown): string {
    if (v === null || v === undefined) return `(${x} IS NULL OR ${x} = 'null'::jsonb)`;
    const j = p.json(v);
    if (typeof v === 'object') return `(${x} = ${j})`;
    return `(${x} = ${j} OR (jsonb_typeof(${x}) = 'array' AND ${x} @> jsonb_build_array(${j})))`;
  }

  function operator(x: string, op: string, arg: unknown): string {
    switch (op) {
      case '$eq': return eq(x, arg);
      case '$ne': return `NOT coalesce(${eq(x, arg)}, false)`;
      case '$in': return inList(x, arg, op);
      case '$nin': return `NOT coalesce(${inList(x, arg, op)}, false)`;
      case '$exists': return arg === false ? `(${x} IS NULL)` : `(${x} IS NOT NULL)`;
      case '$gt': case '$gte': case '$lt': case '$lte': {
        // Same-type comparison, as document stores do: numbers numerically, text by code point.
        if (typeof arg === 'number') return `(jsonb_typeof(${x}) = 'number' AND ${x} ${CMP[op]} ${p.json(arg)})`;
        if (typeof arg === 'string') return `(jsonb_typeof(${x}) = 'string' AND (${x} #>> '{}') COLLATE "C" ${CMP[op]} ${p.bind(arg)}::text)`;
        throw new Error(`document_operation filter: ${op} compares with a number or text, not ${JSON.stringify(arg)}`);
      }
      default:
        throw new Error(`document_operation filter: unsupported operator ${op} (supported: ${FILTER_OPERATORS.join(', ')})`);
    }
  }

  function inList(x: string, arg: unknown, op: string): string {
    if (!Array.isArray(arg)) throw new Error(`document_operation filter: ${op} takes a list of values`);
    const values = arg.filter((v) => v !== null && v !== undefined);
    const e = `EXISTS (SELECT 1 FROM jsonb_array_elements(${p.json(values)}) AS e(v) WHERE ${x} = e.v OR (jsonb_typeof(${x}) = 'array' AND ${x} @> jsonb_build_array(e.v)))`;
    return values.length < arg.length ? `(${e} OR ${x} IS NULL OR ${x} = 'null'::jsonb)` : `(${e})`;
  }

  return doc(filter, 0);
}
