// What the database kinds share: the resolved settings of one database, and a driver's contract.
import type { Abortable } from '../../run-cancel.ts';

/** A database as an action sees it after interpolation (declared under `databases:` or conn_string). */
export interface DbSettings {
  /** postgres://, postgresql://, mysql:// or mariadb:// connection string (may hold a password). */
  url: string;
  /** The declared name, or "conn_string" for an action's override (for messages). */
  label: string;
  poolSize: number;
  statementTimeoutMs: number;
  connectTimeoutMs: number;
}

export interface QueryOptions {
  /** Postgres only: the text is a batch run through the simple protocol; no params, no rows. */
  multi?: boolean;
  /** false: an unnamed statement (texts built per call, which a per-connection cache must not keep). */
  prepare?: boolean;
  /** The action's signal, or the run's cancellation itself when that is all it follows. */
  signal?: Abortable;
  /** The caller's name for the database in messages: a pool is shared by every config with the same
   *  connection string, so the name of whoever opened it is not the caller's. */
  label?: string;
}

export interface Driver {
  dialect: 'postgres' | 'mysql';
  /** Rows as plain objects, values mapped as docs/actions-database.md says. */
  query(text: string, params: readonly unknown[], o: QueryOptions): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/** A failure with what the executor needs to classify it (connect failures drop the pool). */
export class DbError extends Error {
  constructor(message: string, public cls: 'connect' | 'timeout' | 'query') {
    super(message);
  }
}

export const DEFAULTS = { poolSize: 10, statementTimeoutMs: 30_000, connectTimeoutMs: 10_000 } as const;
