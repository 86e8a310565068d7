// CREATE TABLE IF NOT EXISTS once per pool and table. Two first uses at once on Postgres: the loser's
// CREATE fails on the catalog (23505 unique violation, 42P07 duplicate table, 42710 duplicate type)
// although the table now exists.
import { DbError, type Driver, type QueryOptions } from './types.ts';

const created = new WeakMap<Driver, Set<string>>();

export async function createTableOnce(driver: Driver, table: string, ddl: string, o: QueryOptions): Promise<void> {
  let known = created.get(driver);
  if (!known) created.set(driver, (known = new Set()));
  if (known.has(table)) return;
  try {
    await driver.query(ddl, [], o);
  } catch (e) {
    if (!(e instanceof DbError && /SQLSTATE (23505|42P07|42710)\)$/.test(e.message))) throw e;
  }
  known.add(table);
}

/** Forget a table (it was dropped behind our back): the next use creates it again. */
export const forgetTable = (driver: Driver, table: string): void => { created.get(driver)?.delete(table); };
