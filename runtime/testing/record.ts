// `pipewright test --record`: a case runs against the real upstreams once, and what they answered is
// kept as the case's recordings (./recordings-file.ts writes them, redacted). HTTP exchanges are
// recorded by an undici interceptor around the real keep-alive pools (every connection still goes
// through the outbound dialer and its policy); every other outbound action's result is recorded by
// action name at the same hook that stands it in during a replay (Services.standIns.attempt).
import { Dispatcher } from 'undici';
import type { StandInOutcome } from '../services.ts';
import { getDispatcher } from '../actions/http/pool.ts';
import { isJsonType } from '../server/request.ts';
import { kindClass, type StandIns } from './stand-ins.ts';
import type { TransportClass } from '../run-state.ts';
import type { RefusalStatus } from '../refused.ts';

/** One HTTP exchange as the recordings file keeps it (the case format's `http:` entry). */
export interface HttpExchange {
  request: { method: string; url: string; body?: unknown };
  response: { status: number; headers: Record<string, string>; body?: unknown };
}

/** One call of an outbound action (the case format's `actions:` entry). */
export interface ActionCall { data?: unknown; error?: string; transport?: TransportClass; refused?: RefusalStatus; status?: number; headers?: Record<string, string> }

export interface CaseRecording { http: HttpExchange[]; actions: Record<string, ActionCall[]> }

/** Response headers left out of a recording: they describe the connection or the moment, not the
 *  answer (a replayed response is framed anew), and would make every recording differ. */
const UNKEPT_HEADERS = new Set(['date', 'age', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'proxy-connection', 'upgrade', 'via', 'server-timing', 'x-request-id', 'report-to', 'nel']);

/** The recordings of the cases run so far, the current case's being filled in. */
export class Recorder {
  readonly cases = new Map<string, CaseRecording>();
  private current: CaseRecording | undefined;

  /** Starts recording a case (cases run one at a time). */
  begin(name: string): void {
    this.current = { http: [], actions: Object.create(null) as Record<string, ActionCall[]> };
    this.cases.set(name, this.current);
  }

  end(): void { this.current = undefined; }

  /** The stand-ins of a recorded case: HTTP to the real upstreams, recorded; outbound actions run for
   *  real, recorded; everything else as `base` (the case's harness) does it (captures, in-process). */
  standIns(base: StandIns | undefined): StandIns {
    const rec = this;
    return {
      dispatcher: this.dispatcher,
      around: this.around,
      attempt(action, config, ctx, real) {
        if (kindClass(action.kind) !== 'outbound') return base?.attempt(action, config, ctx, real);
        const slot = rec.slot(action.name);
        return real().then(
          (o) => { fillCall(slot, o); return o; },
          (e: unknown) => { slot.error = e instanceof Error ? e.message : String(e); throw e; },
        );
      },
    };
  }

  /** A call's place, taken when it starts, so calls are kept in the order they were made. */
  private slot(action: string): ActionCall {
    const c = this.current;
    if (!c) throw new Error('no case is being recorded');
    const call: ActionCall = {};
    (c.actions[action] ??= []).push(call);
    return call;
  }

  /** Each exchange recorded into the current case as it passes. */
  private readonly intercept: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (opts, handler) => {
    const c = this.current;
    if (!c) return dispatch(opts, handler);
    const url = new URL(opts.path, opts.origin).href;
    const request: HttpExchange['request'] = { method: opts.method, url, ...bodyOf(requestBytes(opts.body), undefined) };
    const exchange: HttpExchange = { request, response: { status: 0, headers: {} } };
    c.http.push(exchange); // its place now: the order requests were made in
    return dispatch(opts, recording(handler, exchange, () => { c.http.splice(c.http.indexOf(exchange), 1); }));
  };

  /** The real pools (through the dialer), recorded: for clients without pool settings of their own. */
  readonly dispatcher: Dispatcher = new Upstream().compose(this.intercept);

  /** An HTTP action's own pool (its proxy, TLS, timeouts), recorded. */
  readonly around = (real: Dispatcher): Dispatcher => real.compose(this.intercept);
}

/** A dispatcher that hands each request to the keep-alive pool of its origin (the http action's own). */
class Upstream extends Dispatcher {
  override dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    return getDispatcher(String(opts.origin)).dispatch(opts, handler);
  }
  // The pools are the process's: closing this wrapper closes nothing.
  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void { if (callback) callback(); else return Promise.resolve(); }
  override destroy(): Promise<void>;
  override destroy(err: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(err: Error | null, callback: () => void): void;
  override destroy(a?: unknown, b?: unknown): Promise<void> | void {
    const cb = typeof a === 'function' ? a : b;
    if (typeof cb === 'function') (cb as () => void)(); else return Promise.resolve();
  }
}

/** The handler with the response copied into `exchange` as it passes; a failed exchange (no
 *  response: refused, unreachable) is dropped, since a replay has nothing to answer it with. */
function recording(h: Dispatcher.DispatchHandler, exchange: HttpExchange, dropped: () => void): Dispatcher.DispatchHandler {
  const chunks: Buffer[] = [];
  let type: string | undefined;
  return {
    onRequestStart: (c, ctx) => h.onRequestStart?.(c, ctx),
    onRequestUpgrade: (c, status, headers, socket) => h.onRequestUpgrade?.(c, status, headers, socket),
    onResponseStart: (c, status, headers, message) => {
      if (status >= 200) {
        exchange.response.status = status;
        exchange.response.headers = keptHeaders(headers);
        type = exchange.response.headers['content-type'];
      }
      return h.onResponseStart?.(c, status, headers, message);
    },
    onResponseData: (c, chunk) => { chunks.push(Buffer.from(chunk)); return h.onResponseData?.(c, chunk); },
    onResponseEnd: (c, trailers) => {
      Object.assign(exchange.response, bodyOf(Buffer.concat(chunks), type));
      return h.onResponseEnd?.(c, trailers);
    },
    onResponseError: (c, err) => { dropped(); return h.onResponseError?.(c, err); },
  };
}

function keptHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    const name = k.toLowerCase();
    if (v === undefined || UNKEPT_HEADERS.has(name)) continue;
    out[name] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

function requestBytes(body: Dispatcher.DispatchOptions['body']): Buffer | undefined {
  if (body === null || body === undefined) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body);
  return Buffer.from('[a streamed body: not recorded]');
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A body as the recordings keep it: a JSON mapping or list as itself, other text as a string;
 *  nothing for an empty body. Bytes that are not UTF-8 are not kept (the case format's bodies are
 *  text): a note says how many there were, and a replay answers with the note. */
function bodyOf(bytes: Buffer | undefined, type: string | undefined): { body?: unknown } {
  if (!bytes?.length) return {};
  let text: string;
  try { text = utf8.decode(bytes); } catch { return { body: `[${bytes.length} bytes that are not UTF-8 text: not recorded]` }; }
  if (type === undefined || isJsonType(type)) {
    try {
      const v: unknown = JSON.parse(text);
      if (v !== null && typeof v === 'object') return { body: v };
    } catch { /* text */ }
  }
  return { body: text };
}

function fillCall(call: ActionCall, o: StandInOutcome): void {
  if (o.ok) call.data = o.data ?? null;
  else {
    call.error = o.error ?? 'failed';
    // A timeout replays as a timeout (504, retried by `retry.on: [timeout]`), not as a plain error.
    if (o.failure?.kind === 'transport') call.transport = o.failure.cls;
    // A refusal the kind made (a destination the outbound policy denied) replays as that refusal.
    if (o.failure?.kind === 'refused') call.refused = o.failure.status;
  }
  if (o.status !== undefined) call.status = o.status;
  if (o.headers) call.headers = o.headers;
}
