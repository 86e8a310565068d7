// A collection is a table of JSONB documents, created on first use: `_id` (text, the primary key),
// `doc` (the document, _id included) and `_seq` (insertion order, the default sort).
import type { Driver, QueryOptions } from '../database/types.ts';
import { DbError } from '../database/types.ts';
import { createTableOnce, forgetTable } from '../database/create-table.ts';

const UNDEFINED_TABLE = /\(SQLSTATE 42P01\)$/;

const ensure = (driver: Driver, table: string, o: QueryOptions) =>
  createTableOnce(driver, table, `CREATE TABLE IF NOT EXISTS ${table} (_id text PRIMARY KEY, doc jsonb NOT NULL, _seq bigint GENERATED ALWAYS AS IDENTITY)`, o);

/** Runs `sql` on the collection's table, creating it first when needed. */
export async function onCollection(driver: Driver, table: string, sql: string, params: unknown[], o: QueryOptions): Promise<Record<string, unknown>[]> {
  await ensure(driver, table, o);
  try {
    return await driver.query(sql, params, { ...o, prepare: false });
  } catch (e) {
    if (!(e instanceof DbError && UNDEFINED_TABLE.test(e.message))) throw e;
    forgetTable(driver, table);
    await ensure(driver, table, o);
    return driver.query(sql, params, { ...o, prepare: false });
  }
}
