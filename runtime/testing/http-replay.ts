// A test case's HTTP upstreams: its recordings replayed through undici's MockAgent with net
// connect disabled. The dispatcher the hooks hand out (./stand-ins.ts) notes every request no
// recording matches, by method and URL, so the case fails naming it even when the config handles
// the action's failure; recordings left unused fail the case too.
import { isDeepStrictEqual } from 'node:util';
import { Dispatcher, getGlobalDispatcher, MockAgent, setGlobalDispatcher } from 'undici';
import type { Recording } from './case-types.ts';

export class HttpReplay {
  private readonly agent = new MockAgent();
  /** Requests no recording matched, as `METHOD url`. */
  readonly unmatched: string[] = [];
  readonly dispatcher: Dispatcher;

  constructor(recordings: readonly Recording[]) {
    this.agent.disableNetConnect();
    for (const r of recordings) {
      const url = new URL(r.request.url);
      const want = r.request.body;
      const headers = r.request.headers;
      const res = r.response;
      const json = res.body !== undefined && typeof res.body !== 'string';
      const resHeaders = { ...(json && !hasHeader(res.headers, 'content-type') ? { 'content-type': 'application/json' } : {}), ...res.headers };
      this.agent.get(url.origin).intercept({
        path: `${url.pathname}${url.search}`,
        method: (r.request.method ?? 'GET').toUpperCase(),
        // A body given as JSON matches a request whose JSON body is equal; text matches exactly.
        ...(want === undefined ? {} : { body: (sent: string) => (typeof want === 'string' ? sent === want : jsonEqual(sent, want)) }),
        ...(headers ? { headers: (sent: Record<string, string>) => subsetHeaders(sent, headers) } : {}),
      }).reply(res.status ?? 200, res.body === undefined ? '' : json ? JSON.stringify(res.body) : (res.body as string), { headers: resHeaders }).times(r.times ?? 1);
    }
    this.dispatcher = new Noting(this.agent, this.unmatched);
  }

  /** Recordings not used as many times as they say, as `METHOD url`. */
  unused(): string[] {
    return this.agent.pendingInterceptors().map((p) => `${p.method} ${p.origin}${p.path}${p.times !== null && p.times > 1 ? ` (${p.times} more uses expected)` : ''}`);
  }

  close(): Promise<void> { return this.agent.close(); }
}

/** The MockAgent, noting what it could not answer (its own error names the path, not the origin). */
class Noting extends Dispatcher {
  constructor(private readonly agent: MockAgent, private readonly unmatched: string[]) { super(); }

  override dispatch(o: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const what = `${o.method} ${String(o.origin ?? '').replace(/\/$/, '')}${o.path}`;
    // The miss is thrown here when the origin has recordings, else handed to the handler's error callback.
    const missed = (e: unknown) => {
      if ((e as { code?: string })?.code !== 'UND_MOCK_ERR_MOCK_NOT_MATCHED') return e;
      this.unmatched.push(what);
      return new Error(`no recording matches ${what} (pipewright test: nothing leaves the process)`, { cause: e });
    };
    const noting = new Proxy(handler, {
      get(target, key) {
        const v = (target as Record<string | symbol, unknown>)[key];
        if (typeof v !== 'function') return v;
        if (key === 'onResponseError' || key === 'onError') return (...args: unknown[]) => v.apply(target, [...args.slice(0, -1), missed(args[args.length - 1])]);
        return v.bind(target);
      },
    });
    try {
      return this.agent.dispatch(o, noting);
    } catch (e) {
      throw missed(e);
    }
  }

  override close(): Promise<void> { return Promise.resolve(); }
  override destroy(): Promise<void> { return Promise.resolve(); }
}

function jsonEqual(text: string, want: unknown): boolean {
  try { return isDeepStrictEqual(JSON.parse(text), want); } catch { return false; }
}

const hasHeader = (h: Record<string, string> | undefined, name: string) => !!h && Object.keys(h).some((k) => k.toLowerCase() === name);

function subsetHeaders(sent: Record<string, string | string[]> | undefined, want: Record<string, string>): boolean {
  const got = new Map(Object.entries(sent ?? {}).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(', ') : String(v)]));
  return Object.entries(want).every(([k, v]) => got.get(k.toLowerCase()) === v);
}

/** While cases run, the process's global dispatcher (Node's fetch, undici's request) refuses every
 *  connection too: a path that bypassed the stand-ins would fail instead of reaching the network.
 *  Returns the undo. */
export function sealGlobalDispatcher(): () => void {
  const before = getGlobalDispatcher();
  const sealed = new MockAgent();
  sealed.disableNetConnect();
  setGlobalDispatcher(sealed);
  return () => { setGlobalDispatcher(before); void sealed.close(); };
}
