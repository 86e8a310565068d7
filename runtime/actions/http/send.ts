// One HTTP exchange on an undici dispatcher, with the response body buffered up to a byte bound.
// A raw dispatch handler (rather than undici.request) tells us whether the request reached a socket
// (connect vs timeout classification) and lets an abort settle at once even while still connecting.
import type { Dispatcher } from 'undici';
import { SendError } from './transport-error.ts';
import { listenAbort, type Abortable } from '../../run-cancel.ts';

export interface SendOptions { origin: string; method: string; path: string; headers: Record<string, string | string[]>; body?: Buffer }
export interface RawResponse { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) { super(`response body exceeds the ${limit}-byte limit`); }
}

/** No string made for the usual methods (this runs for every response, every lookup item). */
const isHead = (m: string) => m === 'HEAD' || (m.length === 4 && m.toUpperCase() === 'HEAD');

/** `signal`: what aborts the exchange, an AbortSignal or the run's cancellation itself. */
export function send(dispatcher: Dispatcher, o: SendOptions, signal: Abortable | undefined, maxBytes: number): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let sent = false, settled = false, status = 0, size = 0;
    let unlisten: (() => void) | undefined;
    let headers: RawResponse['headers'] = {};
    const chunks: Buffer[] = [];
    const finish = (fn: () => void) => { if (settled) return; settled = true; unlisten?.(); fn(); };
    const fail = (err: unknown, aborted = false) =>
      finish(() => reject(new SendError(err, { sent, aborted, ...(status ? { status, headers } : {}) })));
    const stop = (c: Dispatcher.DispatchController, err: Error) => { fail(err); c.abort(err); };
    const onAbort = () => { fail(signal!.reason, true); controller?.abort(signal!.reason); };

    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        controller = c;
        sent = true;
        if (settled) c.abort(signal?.reason); // aborted while waiting for a connection
      },
      onResponseStart(c, statusCode, h) {
        if (statusCode < 200) return; // informational
        status = statusCode;
        headers = h;
        // HEAD, 204 and 304 carry no body whatever their content-length says.
        const bodiless = statusCode === 204 || statusCode === 304 || isHead(o.method);
        if (!bodiless && Number(h['content-length']) > maxBytes) stop(c, new BodyTooLargeError(maxBytes));
      },
      onResponseData(c, chunk) {
        size += chunk.length;
        if (size > maxBytes) return stop(c, new BodyTooLargeError(maxBytes));
        chunks.push(chunk);
      },
      // One chunk (most small bodies) is kept as it is: a view of the socket's read, never reused.
      onResponseEnd() { finish(() => resolve({ status, headers, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size) })); },
      onResponseError(_c, err) { fail(err); },
    };

    if (signal?.aborted) return onAbort();
    unlisten = listenAbort(signal, onAbort);
    try {
      // `origin` routes the request on a ProxyAgent; a Pool ignores it (it has its own).
      dispatcher.dispatch({ origin: o.origin, path: o.path, method: o.method as Dispatcher.HttpMethod, headers: o.headers, body: o.body ?? null }, handler);
    } catch (e) {
      fail(e); // invalid method token or header value
    }
  });
}
