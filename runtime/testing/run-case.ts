// Runs one hermetic test case (issue 32 §1): the interface's run on services of its own — a virtual
// clock, a fresh in-memory store that parks runs, the case's HTTP recordings and action stand-ins,
// captured publishes — then its parked waits resumed in process (a delay's or retry's time passes on
// the virtual clock; a callback is the scripted body or its timeout), then the expectations. Nothing
// leaves the process: the problems say which request or action would have.
import type { InterfacePlan, Plan } from '../plan.ts';
import type { RequestData } from '../run-state.ts';
import { executeInterface, resumeRun, runnerOf, type RunResult } from '../exec/run.ts';
import { linkPlans, type Services, type StandIns } from '../services.ts';
import { processEnvironment } from '../environment.ts';
import { BadRequest, decodeBody } from '../server/request.ts';
import { checkAccepts, checkBodySchema, checkBodyType } from '../server/accepts.ts';
import { encodeResponse } from '../server/reply.ts';
import type { HttpResponse } from '../exec/response.ts';
import { CaseStandIns } from './case-stand-ins.ts';
import type { CaseFile, CaseRequest, TestCase } from './case-types.ts';
import { CaseStore } from './case-store.ts';
import { Captures } from './captures.ts';
import { checkExpect } from './expect.ts';
import { HttpReplay } from './http-replay.ts';
import { VirtualClock } from './virtual-clock.ts';

/** Waits resumed in one case at most (a run that parks itself in a loop must still end). */
const MAX_RESUMES = 1000;

export interface CaseLimits { maxDelayMs?: number; runDeadlineMs?: number }

/** `standIns`: wraps the case's stand-ins (`--record` sends HTTP and outbound kinds to the real
 *  upstreams through it, recording them: ./record.ts). */
export interface CaseHooks { standIns?: (base: StandIns) => StandIns }

export async function runCase(plans: readonly Plan[], plan: Plan, i: InterfacePlan, c: TestCase, file: Pick<CaseFile, 'vars' | 'secrets' | 'env'>, limits: CaseLimits = {}, hooks: CaseHooks = {}): Promise<string[]> {
  const clock = new VirtualClock();
  const store = new CaseStore();
  const replay = new HttpReplay(c.http ?? []);
  const captures = new Captures();
  const caseStandIns = new CaseStandIns(c.actions ?? {}, replay.dispatcher, captures);
  const standIns = hooks.standIns ? hooks.standIns(caseStandIns) : caseStandIns;
  const env = processEnvironment(caseEnv(file));
  const services: Services = {
    clock, store, standIns, channels: captures.channels, mqtt: captures.mqtt,
    ...(limits.maxDelayMs !== undefined ? { maxDelayMs: limits.maxDelayMs } : {}),
    ...(limits.runDeadlineMs !== undefined ? { runDeadlineMs: limits.runDeadlineMs } : {}),
    // emit_metric fails in service unless the config exposes metrics: so it does here.
    ...(plan.exposeMetrics ? { metrics: captures.metrics } : {}),
  };
  linkPlans(services, plans, runnerOf(env, services));
  const problems: string[] = [];
  try {
    const request = requestOf(i, c.request ?? {});
    let answer: { status: number; headers: Record<string, string>; body: unknown };
    const refused = refusal(i, request);
    if (refused) answer = refused;
    else {
      let r: RunResult = await executeInterface(plan, i, request, { trigger: 'test', env, services });
      const callbacks = [...(c.callbacks ?? [])];
      for (let n = 0; r.state.status === 'suspended' && n < MAX_RESUMES; n++) {
        const wake = r.state.wake!;
        const at = wake.at ? Date.parse(wake.at) : clock.now();
        if (wake.reason === 'callback') {
          const next = callbacks[0];
          if (next?.action !== wake.action) {
            problems.push(`the run waits for a callback in action "${wake.action}"; the case scripts ${next ? `one for "${next.action}" next` : 'none (add callbacks: [{ action: ' + wake.action + ', body: ... }])'}`);
            break;
          }
          callbacks.shift();
          if (next.timeout) clock.advanceTo(at);
          r = await resumeRun(plan, r.state, next.timeout ? { kind: 'timeout' } : { kind: 'callback', body: next.body ?? null }, { env, services });
        } else {
          clock.advanceTo(at);
          r = await resumeRun(plan, r.state, { kind: 'wake' }, { env, services });
        }
      }
      for (const cb of callbacks) problems.push(`the scripted callback for action "${cb.action}" was not used (the run did not wait there)`);
      answer = asClientSees(r.response, i);
    }
    problems.push(...caseStandIns.problems);
    for (const u of replay.unmatched) problems.push(`request without a recording: ${u}`);
    for (const u of replay.unused()) problems.push(`recording not used: ${u}`);
    problems.push(...caseStandIns.unused());
    problems.push(...(await checkExpect(c.expect ?? {}, answer, captures.list)));
  } finally {
    await replay.close();
    await store.close();
  }
  return problems;
}

/** The answer as the server sends it and a client reads it (runtime/server/reply.ts): a string body
 *  holding JSON (a `custom_body`) is JSON on the wire, `output: none` answers 204 with no body. */
function asClientSees(r: HttpResponse, i: InterfacePlan): { status: number; headers: Record<string, string>; body: unknown } {
  const enc = encodeResponse(r, i.output);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(enc.headers)) headers[k.toLowerCase()] = v;
  const json = /^application\/(?:[\w.+-]+\+)?json\b/i.test(headers['content-type'] ?? '');
  let body: unknown = enc.payload;
  if (enc.payload === '') body = null;
  else if (json) { try { body = JSON.parse(enc.payload); } catch { /* the text as it is */ } }
  return { status: enc.status, headers, body };
}

/** The process environment, with the file's env, vars and secrets over it (as SERVICE__VAR__ and
 *  SERVICE__SECRET__ settings, the names a config reads them by). */
function caseEnv(file: Pick<CaseFile, 'vars' | 'secrets' | 'env'>): NodeJS.ProcessEnv {
  const given = Object.assign(Object.create(null) as NodeJS.ProcessEnv, process.env, file.env);
  for (const [k, v] of Object.entries(file.vars ?? {})) given[`SERVICE__VAR__${k}`] = v;
  for (const [k, v] of Object.entries(file.secrets ?? {})) given[`SERVICE__SECRET__${k}`] = v;
  return given;
}

/** The request as the server would hand it to the run: query and path params in one map (path ones
 *  win), the path with its params filled in, header names in lower case, the body decoded. */
export function requestOf(i: InterfacePlan, r: CaseRequest): RequestData & { decodeError?: BadRequest } {
  const str = (m: Record<string, string | number | boolean> | undefined) => Object.fromEntries(Object.entries(m ?? {}).map(([k, v]) => [k, String(v)]));
  const params = { ...str(r.query), ...str(r.params) };
  const headers = Object.fromEntries(Object.entries(r.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  if (r.body !== undefined) headers['content-type'] ??= 'application/json';
  const path = i.route.replace(/:([A-Za-z0-9_]+)|\{([A-Za-z0-9_]+)\}/g, (all, a?: string, b?: string) => encodeURIComponent(params[(a ?? b)!] ?? all));
  const method = (r.method ?? i.method.split(',')[0]!).toUpperCase();
  const rawBody = r.raw_body ?? (r.body === undefined ? '' : JSON.stringify(r.body));
  try {
    return { method, path, params, headers, body: r.raw_body === undefined ? (r.body ?? null) : decodeBody(rawBody, headers['content-type'] ?? ''), rawBody };
  } catch (e) {
    return { method, path, params, headers, body: null, rawBody, decodeError: e as BadRequest };
  }
}

/** What the server answers before any action runs: a body that does not decode, or that `accepts`
 *  refuses (runtime/server/accepts.ts), in the server's error shape. */
function refusal(i: InterfacePlan, r: ReturnType<typeof requestOf>): { status: number; headers: Record<string, string>; body: unknown } | undefined {
  try {
    if (r.decodeError) throw r.decodeError;
    if (i.accepts) {
      checkAccepts(i, { body: r.rawBody, headers: r.headers } as never);
      checkBodyType(i, r.body);
      checkBodySchema(i, r.body);
    }
    return undefined;
  } catch (e) {
    if (!(e instanceof BadRequest)) throw e;
    return { status: e.status, headers: {}, body: { error: { status: e.status, message: e.message, ...(e.violations ? { violations: e.violations } : {}) } } };
  }
}
