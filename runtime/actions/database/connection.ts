// One statement's use of a pooled connection, the same for both drivers: a connect failure closes the
// pool and says where it tried to connect (the host the driver dialled, not the configured one: a
// connection string's `?host=` wins over its authority); a destination the outbound dialer refuses
// is a refusal (403, never retried); the action's timeout drops the connection mid-statement; any
// other failure is the driver's message with its SQLSTATE. The connection always goes back.
import { DbError } from './types.ts';
import { listenAbort, type Abortable } from '../../run-cancel.ts';
import { Refused } from '../../refused.ts';

export interface Lease<C> {
  conn: C;
  release(): void;
  /** Close the connection (a statement abandoned mid-way must not go back to the pool). */
  destroy(): void;
}

/** A driver error as `message (SQLSTATE xxxxx)` and its class. */
export type Classify = (e: unknown) => { message: string; cls: DbError['cls'] };

export async function withConnection<C, T>(
  label: string, where: () => string, signal: Abortable | undefined, acquire: () => Promise<Lease<C>>, onConnectFailure: () => void, classify: Classify, use: (c: C) => Promise<T>,
): Promise<T> {
  let lease: Lease<C>;
  try {
    lease = await acquire();
  } catch (e) {
    onConnectFailure();
    if (e instanceof Refused) throw new Refused(`${e.message} (database "${label}" at ${where()})`, e.status);
    throw new DbError(`database "${label}" (${where()}): could not connect: ${(e as Error).message}`, 'connect');
  }
  let broken = false;
  const abort = () => { broken = true; lease.destroy(); };
  const unlisten = listenAbort(signal, abort);
  try {
    if (signal?.aborted) throw signal.reason;
    return await use(lease.conn);
  } catch (e) {
    if (signal?.aborted) throw new DbError(`database "${label}": the query was abandoned when the action's timeout passed`, 'timeout');
    const c = classify(e);
    throw new DbError(`database "${label}": ${c.message}`, c.cls);
  } finally {
    unlisten();
    if (!broken) lease.release();
  }
}
