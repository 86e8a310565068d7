// Update operators → a parameterised SQL expression computing the new document from `m.doc`:
// $set, $unset, $inc, $push (with $each). Each step reads the previous one once, through a subselect,
// so the text grows linearly with the number of fields. Missing parents of a dotted path are created.
import { checkField, isPlain, type Params } from './sql.ts';

export const UPDATE_OPERATORS = ['$set', '$unset', '$inc', '$push'];
const MAX_FIELDS = 200;

/** `(SELECT <body over x.d> FROM (SELECT <prev> AS d) x)`. */
const step = (prev: string, body: string) => `(SELECT ${body} FROM (SELECT ${prev} AS d) x)`;

export function updateExpr(update: unknown, p: Params, from = 'm.doc'): string {
  if (!isPlain(update) || !Object.keys(update).length) throw new Error(`document_operation update: an object of update operators (${UPDATE_OPERATORS.join(', ')})`);
  let d = from;
  let fields = 0;
  for (const [op, arg] of Object.entries(update)) {
    if (!UPDATE_OPERATORS.includes(op)) {
      throw new Error(op.startsWith('$') ? `document_operation update: unsupported operator ${op} (supported: ${UPDATE_OPERATORS.join(', ')})` : `document_operation update: "${op}" is not an update operator; write {$set: {${op}: ...}} (or use replaceOne)`);
    }
    if (!isPlain(arg)) throw new Error(`document_operation update: ${op} takes an object of fields`);
    for (const [f, v] of Object.entries(arg)) {
      if (++fields > MAX_FIELDS) throw new Error(`document_operation update: more than ${MAX_FIELDS} fields`);
      checkField(f, 'update');
      if (f === '_id' || f.startsWith('_id.')) throw new Error('document_operation update: _id cannot be changed');
      d = apply(d, op, f, v, p);
    }
  }
  return d;
}

function apply(d: string, op: string, f: string, v: unknown, p: Params): string {
  if (op === '$unset') return step(d, `x.d #- ${p.path(f)}`);
  const segs = f.split('.');
  // Parents first: a missing or non-object parent becomes {} so the leaf can be set.
  for (let i = 1; i < segs.length; i++) {
    const pre = p.path(segs.slice(0, i).join('.'));
    d = step(d, `jsonb_set(x.d, ${pre}, CASE WHEN jsonb_typeof(x.d #> ${pre}) = 'object' THEN x.d #> ${pre} ELSE '{}'::jsonb END, true)`);
  }
  const at = p.path(f);
  switch (op) {
    case '$set':
      return step(d, `jsonb_set(x.d, ${at}, ${p.json(v ?? null)}, true)`);
    case '$inc':
      if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`document_operation update: $inc of "${f}" takes a number, not ${JSON.stringify(v)}`);
      return step(d, `jsonb_set(x.d, ${at}, to_jsonb(coalesce((x.d #> ${at})::numeric, 0) + ${p.bind(String(v))}::numeric), true)`);
    default: { // $push
      const each = isPlain(v) && Object.keys(v).length === 1 && Array.isArray(v.$each) ? v.$each : [v];
      return step(d, `jsonb_set(x.d, ${at}, coalesce(x.d #> ${at}, '[]'::jsonb) || ${p.json(each)}, true)`);
    }
  }
}
