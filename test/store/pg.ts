// Postgres for store tests: the `test` database, one throwaway schema per test file.
import pg from 'pg';
import { PostgresStore } from '../../runtime/store/postgres.ts';

export const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export const freshSchema = (tag: string): string => `pw_test_${tag}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;

/** Two stores on the same schema, each with its own pool: two nodes. */
export function twoNodes(schema: string): [PostgresStore, PostgresStore] {
  return [new PostgresStore({ url: PG_URL, schema }), new PostgresStore({ url: PG_URL, schema })];
}

export async function admin<T>(f: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try { return await f(c); } finally { await c.end(); }
}

export const dropSchema = (schema: string) => admin((c) => c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));

export const truncateAll = (schema: string) =>
  admin((c) => c.query(`TRUNCATE "${schema}".runs, "${schema}".state, "${schema}".seen, "${schema}".ticks, "${schema}".captures`));
