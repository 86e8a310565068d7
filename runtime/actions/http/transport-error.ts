// Classifying failures that produced no usable response, for retry (spec: Retry rules 1 and 3).
import type { Failure } from '../types.ts';

/** Abort reason used for the `timeout` setting; AbortSignal.timeout() reasons share the name. */
export class HttpTimeoutError extends Error {
  override name = 'TimeoutError';
}

export interface SendProgress {
  /** The request was being written to a connected socket. */
  sent: boolean;
  /** The exchange was aborted through the caller's signal (timeout or cancellation). */
  aborted: boolean;
  /** Set once a final status line arrived. */
  status?: number;
  headers?: Record<string, string | string[] | undefined>;
}

/** Raised by send(): the cause plus how far the exchange got. */
export class SendError extends Error {
  constructor(override readonly cause: unknown, readonly progress: SendProgress) {
    super(describe(cause));
  }
}

// Never reached the server: name resolution, routing and refused or timed-out connects.
const CONNECT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME',
  'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT']);
// The connection dropped. Before any response this counts as connect (the usual cause is a stale
// keep-alive socket or a server restart); after the status line it is a broken response: other.
const RESET = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const TIMEOUT = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

export function classify(e: SendError): Extract<Failure, { kind: 'transport' }>['cls'] {
  const err = e.cause as { code?: string; name?: string } | undefined;
  const code = err?.code ?? '';
  const { sent, aborted, status } = e.progress;
  const isTimeout = TIMEOUT.has(code) || (aborted && err?.name === 'TimeoutError');
  // A timeout before the request was written never reached the server (retry.on: [connect] may retry it).
  if (isTimeout) return sent ? 'timeout' : 'connect';
  if (aborted) return 'other'; // cancelled run
  if (CONNECT.has(code)) return 'connect';
  if (RESET.has(code)) return status ? 'other' : 'connect';
  return 'other';
}

/** One line for an error: Node's happy-eyeballs AggregateError has an empty message of its own. */
export function describe(err: unknown): string {
  if (err instanceof AggregateError && !err.message) return err.errors.map(describe).join('; ') || 'connection failed';
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}
