// One log line per HTTP request (request id, run id, config, interface, method, path, status,
// duration; for the run it started and answered, its trigger and run_status: this line is that run's
// line, runtime/log/run-lines.ts), shaped by the interface's `log` setting (CustomLog: enabled, level, fields), and the
// stack of every 5xx. The run id of a request that never started a run is its request id, so every
// error response carries an id to find its log lines by (header x-run-id; bodies stay deterministic).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { InterfacePlan, Plan } from '../plan.ts';
import type { RunResult } from '../exec/run.ts';
import { scopeOf } from '../exec/run.ts';
import type { Environment } from '../scope.ts';
import type { Logger } from '../log/logger.ts';
import { textLines, numberText } from '../log/text-line.ts';
import { jsonString } from '../values/json-string.ts';
import type { Level } from 'pino';
import { LiveList, type LiveEntry } from '../live-list.ts';
import { pathOf } from './request.ts';

/** What a request ran; `runs` and `pending`: its entry among the requests still being answered. */
interface Served { id: string; plan: Plan; iface: InterfacePlan; result: RunResult | undefined; runs: LiveList<Served>; pending: LiveEntry<Served> | undefined }
// Kept on the request itself (a property, not a WeakMap entry per request).
const SERVED = Symbol('pipewright.served');
const served = {
  get: (req: FastifyRequest): Served | undefined => (req as unknown as { [SERVED]?: Served })[SERVED],
  set: (req: FastifyRequest, s: Served) => { (req as unknown as { [SERVED]?: Served })[SERVED] = s; },
};
// Requests still being answered, for shutdown's log line (a LiveList: see there why not a Map).
const pending = new WeakMap<FastifyInstance, LiveList<Served>>();

/** Called by a route handler before and after the run: what the request ran (for its log line).
 *  The list of requests under way is looked up once a request, when it is first noted. */
export function noteRun(req: FastifyRequest, plan: Plan, iface: InterfacePlan, result?: RunResult): void {
  let s = served.get(req);
  if (!s) {
    let runs = pending.get(req.server);
    if (!runs) pending.set(req.server, (runs = new LiveList()));
    served.set(req, (s = { id: req.id, plan, iface, result, runs, pending: undefined }));
  }
  if (result) {
    s.result = result;
    answered(s);
  } else s.pending ??= s.runs.add(s);
}

function answered(s: Served | undefined): void {
  if (!s?.pending) return;
  s.runs.remove(s.pending);
  s.pending = undefined;
}

/** The id an error response carries: its run's, else the request's. */
export function runIdOf(req: FastifyRequest): string {
  return served.get(req)?.result?.state.id ?? req.id;
}

/** When fastify started on a request (set as it makes the request's id, before routing and the
 *  body): the line's duration counts from here, with or without fastify's response listeners. */
const STARTED = Symbol('pipewright.started');
// Set once a request's line is written: a route's onResponse hook and the error path may both try.
const LOGGED = Symbol('pipewright.logged');
type Marked = { [STARTED]?: number; [LOGGED]?: true };

/** Request ids from the environment's uuid (a random v4 UUID; fixed ones in tests), never from a
 *  client's header: an HTTP run is named by its request's id. */
export const requestIds = (uuid: () => string) => ({
  genReqId: (raw: object) => { (raw as Marked)[STARTED] = performance.now(); return uuid(); },
  requestIdHeader: false as const,
});

/** Writes a request's line once its response is sent (the caller's job on routes registered with
 *  DIRECT_LINE; a no-op for a request already logged). */
export type RequestLine = (req: FastifyRequest, reply: FastifyReply) => void;

/** Route config of a route that writes its own line after sending (`lines(req, reply)`): an
 *  interface's route without onRequest hooks. fastify sets up response listeners and runs a hook
 *  chain on every response of a route that has an onResponse hook; these routes skip both. */
export const DIRECT_LINE = { pipewrightDirectLine: true } as const;

export function registerRequestLog(app: FastifyInstance, log: Logger, env: Environment): RequestLine {
  // A client that goes away gets no response, so no onResponse: its line says so.
  app.addHook('onRequestAbort', async (req: FastifyRequest) => {
    const s = served.get(req);
    log.info({ req_id: req.id, run_id: runIdOf(req), ...(s ? { config: s.plan.name, interface: s.iface.name } : {}), method: req.method, path: loggedPath(req.url), status: 499 }, 'request aborted by the client');
  });
  const line: RequestLine = (req, reply) => {
    const m = req.raw as Marked;
    if (m[LOGGED]) return;
    m[LOGGED] = true;
    requestLine(req, reply, m[STARTED]);
  };
  // A callback hook, not an async one (no promise, no extra turn), added to each route as it is
  // registered (the routes of plugins too) except those that write their own line.
  const onResponse = (req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    try { line(req, reply); } catch (e) { done(e as Error); return; }
    done();
  };
  app.addHook('onRoute', (route) => {
    if ((route.config as Partial<typeof DIRECT_LINE> | undefined)?.pipewrightDirectLine) return;
    const own = route.onResponse;
    route.onResponse = own ? [...(Array.isArray(own) ? own : [own]), onResponse] : [onResponse];
  });
  const text = textLines(log);
  const keys = text && {
    req: text.key('req_id'), run: text.key('run_id'), method: text.key('method'), path: text.key('path'),
    status: text.key('status'), duration: text.key('duration_ms'), end: text.end('request'),
  };
  const names = new WeakMap<InterfacePlan, string | null>();
  const runs = new Map<string, Map<string, string | null>>(); // by trigger, then run status
  return line;

  function requestLine(req: FastifyRequest, reply: FastifyReply, started: number | undefined): void {
    const s = served.get(req);
    answered(s);
    const custom = s?.iface.log;
    if (custom && !custom.enabled) return;
    const runId = String(reply.getHeader('x-run-id') ?? runIdOf(req)), path = loggedPath(req.url), status = reply.statusCode;
    const duration = started === undefined ? Math.round(reply.elapsedTime * 10) / 10 : Math.round((performance.now() - started) * 10) / 10;
    const level = (custom?.level ?? (status >= 500 ? 'error' : 'info')) as Level;
    if (!(custom?.fields && s?.result) && asText(level, req.id, runId, s, req.method, path, status, duration)) return;
    // One shape for every line (no spreads); undefined fields are left out.
    const st = s?.result?.state;
    const line: Record<string, unknown> = {
      req_id: req.id, run_id: runId, config: s?.plan.name, interface: s?.iface.name, trigger: st?.trigger, run_status: st?.status,
      method: req.method, path, status, duration_ms: duration,
    };
    if (custom?.fields && s?.result) {
      try { line.fields = custom.fields(scopeOf(s.result.state, env)); } catch (e) { line.fields_error = (e as Error).message; }
    }
    log[level](line, 'request');
  }

  /** The usual line as text (runtime/log/text-line.ts), the interface's names rendered once: false
   *  when it must go pino's way (pretty printing, or a value that may hold a secret, to be redacted). */
  function asText(level: Level, reqId: string, runId: string, s: Served | undefined, method: string, path: string, status: number, duration: number): boolean {
    if (!text) return false;
    const start = text.start(level);
    if (start === null) return true;
    if (start === undefined) return false;
    const names = s ? namesText(s) : '';
    const run = s?.result ? runText(s.result.state) : '';
    const dur = numberText(duration);
    // An HTTP run is named by its request's id: the same text, tested and quoted once.
    const same = runId === reqId;
    if (names === undefined || run === undefined || !(text.clean(reqId) && (same || text.clean(runId)) && text.clean(method) && text.clean(path) && text.clean(dur))) return false;
    const req = jsonString(reqId);
    text.write(start + keys!.req + req + keys!.run + (same ? req : jsonString(runId)) + names + run + keys!.method + jsonString(method)
      + keys!.path + jsonString(path) + keys!.status + status + keys!.duration + dur + keys!.end);
    return true;
  }

  /** `,"config":…,"interface":…` of the served interface, made once; undefined when it holds a secret. */
  function namesText(s: Served): string | undefined {
    let t = names.get(s.iface);
    if (t === undefined) {
      const made = text!.key('config') + jsonString(s.plan.name) + text!.key('interface') + jsonString(s.iface.name);
      names.set(s.iface, (t = text!.clean(made) ? made : null));
    }
    return t ?? undefined;
  }

  /** `,"trigger":…,"run_status":…` of the run the request started and answered, made once per pair
   *  (looked up by the two words as they are: a joined key was a new string to hash on every request). */
  function runText(st: { trigger: string; status: string }): string | undefined {
    let byStatus = runs.get(st.trigger);
    if (!byStatus) runs.set(st.trigger, (byStatus = new Map()));
    let t = byStatus.get(st.status);
    if (t === undefined) {
      const made = text!.key('trigger') + jsonString(st.trigger) + text!.key('run_status') + jsonString(st.status);
      byStatus.set(st.status, (t = text!.clean(made) ? made : null));
    }
    return t ?? undefined;
  }
}

/** 5xx: the error with its stack, for the operator (the client gets "internal error"); a run
 *  cancelled because its client went away (499, no response is written) is noted. */
export function logHandlerError(log: Logger | undefined, req: FastifyRequest, err: Error, status: number): void {
  if (status >= 500) log?.error({ req_id: req.id, run_id: runIdOf(req), err }, err.message);
  else if (status === 499) log?.info({ req_id: req.id, run_id: runIdOf(req), status }, err.message);
}

/** The path as a log line shows it: a resume token (the only credential of a waiting run) is never
 *  written, however the path spells the route (percent escapes, case). One substring test on the
 *  usual path. */
export function loggedPath(url: string): string {
  const path = pathOf(url);
  if (!path.includes('%') && !RESUME_WORD.test(path)) return path;
  let probe = path;
  try { probe = decodeURIComponent(path); } catch { /* malformed escapes: tested as written */ }
  return RESUME_PATH.test(probe) ? '/_ap/resume/[token]' : path;
}
const RESUME_WORD = /resume/i;
const RESUME_PATH = /\/_ap\/+resume(\/|$)/i;

/** Interface runs still being answered (shutdown logs what it left). */
export function inFlight(app: FastifyInstance): string[] {
  return (pending.get(app)?.values() ?? []).map((s) => `${s.plan.name}.${s.iface.name} (request ${s.id})`);
}
