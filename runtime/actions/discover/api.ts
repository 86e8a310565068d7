// One JSON GET against a discovery backend's API (the Kubernetes API server, the Docker Engine on
// its unix socket) through an undici Pool (a class bundles carry) of one connection, closed
// afterwards (answers are cached: nothing to keep open); every wait and the body bounded.
import { Pool } from 'undici';
import { send } from '../http/send.ts';
import { classify, describe, SendError } from '../http/transport-error.ts';
import { DiscoverError } from './error.ts';
import { dialerConnector } from '../../network/dialer.ts';
import { Refused } from '../../refused.ts';

/** Each API call gets this long, whatever the action's own timeout. */
export const API_TIMEOUT_MS = 10_000;
/** Largest API answer read (a pod list of a few thousand pods fits). */
export const MAX_API_BYTES = 32 * 1024 * 1024;

export interface ApiCall {
  /** Says which backend, for messages: `kubernetes API https://…`. */
  what: string;
  origin: string;
  path: string;
  headers?: Record<string, string>;
  /** The API server's CA (https). */
  ca?: string;
  /** A unix socket to connect to instead of the origin's host (the Docker Engine: the socket is gated
   *  by SERVICE__DISCOVER_DOCKER_SOCKET, ./allowed.ts). */
  socketPath?: string;
  /** The setting that names the origin (its connections go through the outbound dialer). */
  setting?: string;
  signal?: AbortSignal;
}

export async function getJson(c: ApiCall): Promise<unknown> {
  const tls = { timeout: API_TIMEOUT_MS, ...(c.ca ? { ca: c.ca } : {}) };
  const pool = new Pool(c.origin, {
    connections: 1,
    // A host through the outbound dialer; the Docker socket is a local path, not a destination.
    ...(c.socketPath ? { connect: tls, socketPath: c.socketPath } : { connect: dialerConnector(tls, c.setting) }),
    headersTimeout: API_TIMEOUT_MS,
    bodyTimeout: API_TIMEOUT_MS,
  });
  const timeout = AbortSignal.timeout(API_TIMEOUT_MS);
  const signal = c.signal ? AbortSignal.any([c.signal, timeout]) : timeout;
  try {
    const res = await send(pool, { origin: c.origin, method: 'GET', path: c.path, headers: { accept: 'application/json', ...c.headers } }, signal, MAX_API_BYTES);
    const text = res.body.toString('utf8');
    if (res.status < 200 || res.status > 299) throw new DiscoverError(`${c.what} answered ${res.status}${apiMessage(text)}`, 'backend');
    try { return JSON.parse(text); } catch { throw new DiscoverError(`${c.what} answered with something other than JSON`, 'backend'); }
  } catch (e) {
    if (e instanceof SendError && e.cause instanceof Refused) throw new DiscoverError(`${c.what}: ${e.cause.message}`, 'refused');
    if (!(e instanceof SendError)) throw e;
    const cls = timeout.aborted ? 'timeout' : classify(e);
    throw new DiscoverError(`${c.what}: ${timeout.aborted ? `no answer within ${API_TIMEOUT_MS} ms` : describe(e.cause)}`, cls === 'other' ? 'backend' : cls);
  } finally {
    pool.destroy().catch(() => {});
  }
}

/** The `message` of a Kubernetes Status or Docker error body, when there is one. */
function apiMessage(text: string): string {
  try {
    const m = (JSON.parse(text) as { message?: unknown }).message;
    return typeof m === 'string' && m ? `: ${m.slice(0, 500)}` : '';
  } catch {
    return '';
  }
}
