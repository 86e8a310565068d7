// Building parameterised SQL for document operations: every value and path is a bound parameter;
// the only identifier (the collection's table) is checked and quoted by `table`.
import pg from 'pg';
import { isPlainPgName } from '../../store/pg-schema.ts';

/** Collects parameters; `bind` returns the placeholder of a new one. */
export class Params {
  readonly values: unknown[] = [];
  bind(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
  /** A JSON value as a jsonb parameter. */
  json(v: unknown): string {
    return `${this.bind(JSON.stringify(v))}::jsonb`;
  }
  /** A dotted field path as a text[] parameter (`a.b.0` → {a,b,0}). */
  path(field: string): string {
    return `${this.bind(field.split('.'))}::text[]`;
  }
}

/** The collection's table, quoted; names are limited to letters, digits and _ (63 at most). */
export function table(collection: unknown): string {
  if (!isPlainPgName(collection)) {
    throw new Error(`document_operation: collection ${JSON.stringify(collection)} must be 1 to 63 letters, digits or _, not starting with a digit`);
  }
  return pg.escapeIdentifier(collection);
}

/** A field path must name something: no empty segments, not a $ operator. */
export function checkField(field: string, where: string): void {
  if (!field || field.split('.').some((s) => s === '') || field.startsWith('$')) throw new Error(`document_operation ${where}: "${field}" is not a field path (use a.b.c)`);
}

export const isPlain = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
