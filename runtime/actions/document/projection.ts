// Projections: {a: 1, b: 1} keeps those top-level fields (and _id unless _id: 0); {a: 0} drops them.
import { setOwn } from '../../values/build.ts';
import { isPlain } from './sql.ts';

export function project(doc: unknown, projection: unknown): unknown {
  if (projection === undefined || projection === null || !isPlain(doc)) return doc;
  if (!isPlain(projection)) throw new Error('document_operation: projection is an object of field: 1 or field: 0');
  const entries = Object.entries(projection);
  for (const [f, v] of entries) {
    if (f.includes('.')) throw new Error(`document_operation projection: "${f}": only top-level fields can be projected`);
    if (v !== 0 && v !== 1 && v !== true && v !== false) throw new Error(`document_operation projection: "${f}" must be 1 or 0`);
  }
  const on = (v: unknown) => v === 1 || v === true;
  const include = entries.filter(([f]) => f !== '_id').some(([, v]) => on(v));
  if (include && entries.some(([f, v]) => f !== '_id' && !on(v))) throw new Error('document_operation projection: mix of inclusion and exclusion (only _id: 0 may be mixed in)');
  const out: Record<string, unknown> = {};
  const dropId = entries.some(([f, v]) => f === '_id' && !on(v));
  for (const [k, v] of Object.entries(doc)) {
    if (k === '_id') { if (!dropId) setOwn(out, k, v); continue; }
    const listed = Object.hasOwn(projection, k);
    if (include ? listed : !listed) setOwn(out, k, v);
  }
  return out;
}
