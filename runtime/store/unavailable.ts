// Is this error the durable store being out of reach (Postgres down, restarting, the network cut),
// rather than a bug or a refused statement? Such a request is answered 503 with Retry-After, and the
// resumer and scheduler wait and try again instead of failing runs.

// libpq/pg connection failures and the server's own "going away" classes (SQLSTATE 08 connection
// exception, 57P01-57P03 admin/crash shutdown and "cannot connect now", 53300 too many connections).
const CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND', '57P01', '57P02', '57P03', '53300']);
const MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Cannot use a pool after calling end',
  'the database system is starting up',
  'the database system is shutting down',
];

export function isStoreUnavailable(e: unknown, depth = 0): boolean {
  if (!e || typeof e !== 'object' || depth > 4) return false;
  const x = e as { code?: unknown; message?: unknown; errors?: unknown; cause?: unknown };
  if (typeof x.code === 'string' && (CODES.has(x.code) || x.code.startsWith('08'))) return true;
  if (typeof x.message === 'string' && MESSAGES.some((m) => (x.message as string).includes(m))) return true;
  // node's AggregateError (every address refused) and wrapped causes.
  if (Array.isArray(x.errors) && x.errors.some((y) => isStoreUnavailable(y, depth + 1))) return true;
  return isStoreUnavailable(x.cause, depth + 1);
}

/** Seconds a client is told to wait before trying again (Retry-After) while the store is away. */
export const STORE_RETRY_AFTER_SECS = 5;
