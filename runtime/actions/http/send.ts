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
    const r = new Receiver(o.method, signal, maxBytes, resolve, reject);
    if (signal?.aborted) return r.onAbort();
    r.unlisten = listenAbort(signal, r.onAbort);
    try {
      // `origin` routes the request on a ProxyAgent; a Pool ignores it (it has its own).
      dispatcher.dispatch({ origin: o.origin, path: o.path, method: o.method as Dispatcher.HttpMethod, headers: o.headers, body: o.body ?? null }, r);
    } catch (e) {
      r.fail(e); // invalid method token or header value
    }
  });
}

/** The exchange's state and undici's handler in one object: its methods are the prototype's (an
 *  object literal of closures here cost a dozen functions on every request, every lookup item). */
class Receiver implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined = undefined;
  private sent = false;
  private settled = false;
  private status = 0;
  private size = 0;
  private headers: RawResponse['headers'] = {};
  private readonly chunks: Buffer[] = [];
  unlisten: (() => void) | undefined = undefined;
  /** Bound once: it is the abort listener. */
  readonly onAbort = (): void => {
    this.fail(this.signal!.reason, true);
    this.controller?.abort(this.signal!.reason);
  };

  constructor(
    private readonly method: string, private readonly signal: Abortable | undefined, private readonly maxBytes: number,
    private readonly resolve: (r: RawResponse) => void, private readonly reject: (e: unknown) => void,
  ) {}

  onRequestStart(c: Dispatcher.DispatchController): void {
    this.controller = c;
    this.sent = true;
    if (this.settled) c.abort(this.signal?.reason); // aborted while waiting for a connection
  }

  onResponseStart(c: Dispatcher.DispatchController, statusCode: number, h: RawResponse['headers']): void {
    if (statusCode < 200) return; // informational
    this.status = statusCode;
    this.headers = h;
    // HEAD, 204 and 304 carry no body whatever their content-length says.
    const bodiless = statusCode === 204 || statusCode === 304 || isHead(this.method);
    if (!bodiless && Number(h['content-length']) > this.maxBytes) this.stop(c, new BodyTooLargeError(this.maxBytes));
  }

  onResponseData(c: Dispatcher.DispatchController, chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) return this.stop(c, new BodyTooLargeError(this.maxBytes));
    this.chunks.push(chunk);
  }

  // One chunk (most small bodies) is kept as it is: a view of the socket's read, never reused.
  onResponseEnd(): void {
    if (!this.finish()) return;
    const { chunks } = this;
    this.resolve({ status: this.status, headers: this.headers, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.size) });
  }

  onResponseError(_c: Dispatcher.DispatchController, err: Error): void { this.fail(err); }

  fail(err: unknown, aborted = false): void {
    if (!this.finish()) return;
    const { sent, status, headers } = this;
    this.reject(new SendError(err, { sent, aborted, ...(status ? { status, headers } : {}) }));
  }

  private stop(c: Dispatcher.DispatchController, err: Error): void { this.fail(err); c.abort(err); }

  /** True the first time only: the exchange settles once, and stops listening for the abort. */
  private finish(): boolean {
    if (this.settled) return false;
    this.settled = true;
    this.unlisten?.();
    return true;
  }
}
