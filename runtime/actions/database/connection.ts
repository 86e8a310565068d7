// One statement's use of a pooled connection, the same for both drivers: a connect failure closes the
// pool and says where it tried to connect; the action's timeout drops the connection mid-statement;
// any other failure is the driver's message with its SQLSTATE. The connection always goes back.
import { describeUrl } from './url.ts';
import { DbError, type DbSettings } from './types.ts';
import { listenAbort, type Abortable } from '../../run-cancel.ts';

export interface Lease<C> {
  conn: C;
  release(): void;
  /** Close the connection (a statement abandoned mid-way must not go back to the pool). */
  destroy(): void;
}

/** A driver error as `message (SQLSTATE xxxxx)` and its class. */
export type Classify = (e: unknown) => { message: string; cls: DbError['cls'] };

export async function withConnection<C, T>(
  db: DbSettings, signal: Abortable | undefined, acquire: () => Promise<Lease<C>>, onConnectFailure: () => void, classify: Classify, use: (c: C) => Promise<T>,
): Promise<T> {
  let lease: Lease<C>;
  try {
    lease = await acquire();
  } catch (e) {
    onConnectFailure();
    throw new DbError(`database "${db.label}" (${describeUrl(db.url)}): could not connect: ${(e as Error).message}`, 'connect');
  }
  let broken = false;
  const abort = () => { broken = true; lease.destroy(); };
  const unlisten = listenAbort(signal, abort);
  try {
    if (signal?.aborted) throw signal.reason;
    return await use(lease.conn);
  } catch (e) {
    if (signal?.aborted) throw new DbError(`database "${db.label}": the query was abandoned when the action's timeout passed`, 'timeout');
    const c = classify(e);
    throw new DbError(`database "${db.label}": ${c.message}`, c.cls);
  } finally {
    unlisten();
    if (!broken) lease.release();
  }
}
