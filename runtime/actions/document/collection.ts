// A collection is a table of JSONB documents, created on first use: `_id` (text, the primary key),
// `doc` (the document, _id included) and `_seq` (insertion order, the default sort).
import type { Driver, QueryOptions } from '../database/types.ts';
import { DbError } from '../database/types.ts';

/** Tables known to exist, per driver (a dropped table is noticed by its error and recreated). */
const ensured = new WeakMap<Driver, Set<string>>();

const UNDEFINED_TABLE = /\(SQLSTATE 42P01\)$/;

async function ensure(driver: Driver, table: string, o: QueryOptions): Promise<void> {
  let known = ensured.get(driver);
  if (!known) ensured.set(driver, (known = new Set()));
  if (known.has(table)) return;
  try {
    await driver.query(`CREATE TABLE IF NOT EXISTS ${table} (_id text PRIMARY KEY, doc jsonb NOT NULL, _seq bigint GENERATED ALWAYS AS IDENTITY)`, [], o);
  } catch (e) {
    // Two first uses at once: the loser's CREATE fails on the catalog's unique index; the table exists.
    if (!(e instanceof DbError && /SQLSTATE (23505|42P07)/.test(e.message))) throw e;
  }
  known.add(table);
}

/** Runs `sql` on the collection's table, creating it first when needed. */
export async function onCollection(driver: Driver, table: string, sql: string, params: unknown[], o: QueryOptions): Promise<Record<string, unknown>[]> {
  await ensure(driver, table, o);
  try {
    return await driver.query(sql, params, { ...o, prepare: false });
  } catch (e) {
    if (!(e instanceof DbError && UNDEFINED_TABLE.test(e.message))) throw e;
    ensured.get(driver)?.delete(table);
    await ensure(driver, table, o);
    return driver.query(sql, params, { ...o, prepare: false });
  }
}
