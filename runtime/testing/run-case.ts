// Runs one hermetic test case (issue 32 §1): the interface's run (or its schedule's ticks) on services
// of its own — a virtual clock from a fixed start, a fresh in-memory store that parks runs, the
// case's HTTP recordings and action stand-ins, captured publishes — then its parked waits resumed in process (a delay's or retry's time passes on
// the virtual clock; a callback is the scripted body or its timeout), then the expectations. Nothing
// leaves the process: the problems say which request or action would have.
import type { InterfacePlan, Plan } from '../plan.ts';
import type { RequestData, RunState } from '../run-state.ts';
import { executeInterface, resumeRun, runnerOf, type RunResult } from '../exec/run.ts';
import { linkPlans, type Services, type StandIns } from '../services.ts';
import { processEnvironment } from '../environment.ts';
import { BadRequest, decodeBody, isJsonType } from '../server/request.ts';
import { checkAccepts, checkBodySchema, checkBodyType } from '../server/accepts.ts';
import { encodeResponse } from '../server/reply.ts';
import type { HttpResponse } from '../exec/response.ts';
import { CaseStandIns } from './case-stand-ins.ts';
import type { CaseFile, CaseRequest, CaseSchedule, TestCase } from './case-types.ts';
import { CaseStore } from './case-store.ts';
import { Captures, type Published } from './captures.ts';
import { checkExpect, type Answer } from './expect.ts';
import { HttpReplay } from './http-replay.ts';
import { VirtualClock } from './virtual-clock.ts';
import { CASE_EPOCH, tickCount, ticksAfter } from './ticks.ts';
import { backoffMs, scheduledRequest } from '../schedule/index.ts';
import { setClock } from '../transforms/util/clock.ts';

/** Waits resumed in one case at most (a run that parks itself in a loop must still end). */
const MAX_RESUMES = 1000;

export interface CaseLimits { maxDelayMs?: number; runDeadlineMs?: number }

/** `standIns`: wraps the case's stand-ins (`--record` sends HTTP and outbound kinds to the real
 *  upstreams through it, recording them: ./record.ts). */
export interface CaseHooks { standIns?: (base: StandIns) => StandIns }

export async function runCase(plans: readonly Plan[], plan: Plan, i: InterfacePlan, c: TestCase, file: Pick<CaseFile, 'vars' | 'secrets' | 'env'>, limits: CaseLimits = {}, hooks: CaseHooks = {}): Promise<string[]> {
  const clock = new VirtualClock(c.schedule?.from !== undefined ? Date.parse(c.schedule.from) : CASE_EPOCH);
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
  const callbacks = [...(c.callbacks ?? [])];
  /** One run to its end: its parked waits resumed (a delay's or retry's time passes on the virtual
   *  clock; a callback is the next scripted one or its timeout). */
  const runToEnd = async (request: RequestData, o: { trigger: 'test' | 'schedule'; tick?: RunState['tick'] }): Promise<RunResult> => {
    let r: RunResult = await executeInterface(plan, i, request, { trigger: o.trigger, env, services, ...(o.tick ? { tick: o.tick } : {}) });
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
    return r;
  };
  // Time-based transforms and asserts (add_jwt, totp, read_jwt, signed URLs) read the case's clock.
  const realClock = setClock(() => clock.now());
  try {
    let answer: Answer | undefined;
    let ticks: TickRun[] | undefined;
    if (c.schedule) {
      const ran = await runTicks(plan, i, c.schedule, clock, runToEnd, captures, [problems, replay.unmatched, caseStandIns.problems]);
      if (ran) { ticks = ran.ticks; answer = asClientSees(ran.last.response, i); }
    } else {
      const request = requestOf(i, c.request ?? {});
      const refused = refusal(i, request);
      answer = refused ?? asClientSees((await runToEnd(request, { trigger: 'test' })).response, i);
    }
    for (const cb of callbacks) problems.push(`the scripted callback for action "${cb.action}" was not used (the run did not wait there)`);
    problems.push(...caseStandIns.problems);
    for (const u of replay.unmatched) problems.push(`request without a recording: ${u}`);
    for (const u of replay.unused()) problems.push(`recording not used: ${u}`);
    problems.push(...caseStandIns.unused());
    const listed = c.schedule && Array.isArray(c.schedule.ticks) ? c.schedule.ticks : undefined;
    if (listed && ticks) {
      // Each listed tick's expectations read that tick's answer and what its runs published.
      for (const [n, t] of ticks.entries()) {
        for (const p of await checkExpect(listed[n]?.expect ?? {}, asClientSees(t.result.response, i), t.published)) problems.push(`${p}${tickMark(n + 1, t.at, t.attempt)}`);
      }
    } else if (answer) problems.push(...(await checkExpect(c.expect ?? {}, answer, captures.list)));
  } finally {
    setClock(realClock);
    await replay.close();
    await store.close();
  }
  return problems;
}

type RunToEnd = (request: RequestData, o: { trigger: 'schedule'; tick: RunState['tick'] }) => Promise<RunResult>;

/** One tick of a `schedule:` case: its tick time, the run that answered last (its last attempt) and
 *  what all of its attempts published. */
interface TickRun { at: number; attempt: number; result: RunResult; published: Published[] }

/** ` (tick 2, 2026-03-01T00:20:00.000Z, attempt 2)`: where in a schedule case a problem happened. */
const tickMark = (n: number, at: number, attempt: number) => ` (tick ${n}, ${new Date(at).toISOString()}${attempt > 1 ? `, attempt ${attempt}` : ''})`;

/** A `schedule:` case: each tick runs as the scheduler runs it (trigger schedule, no request, the
 *  clock at the tick), in time order on the case's one store; a failed run is tried again after the
 *  schedule's backoff, up to its max_attempts. Runs are one after another: a run that waits past the
 *  next tick delays that tick's start (its tick time stays). What goes wrong in a tick is marked
 *  with it in `notes` (lists the runs push to). The ticks in tick order, each with its last run and
 *  its publishes, and the run that ran last (the case's answer); undefined when the cron has fewer
 *  ticks than asked (nothing ran). */
async function runTicks(plan: Plan, i: InterfacePlan, given: CaseSchedule, clock: VirtualClock, runToEnd: RunToEnd, captures: Captures, notes: string[][]): Promise<{ ticks: TickRun[]; last: RunResult } | undefined> {
  const key = `${plan.name}.${i.name}`;
  const asked = tickCount(given);
  const { s, times } = ticksAfter(key, i, clock.now(), asked);
  // Nothing runs then: a cron that stops firing would make a case that checks less than it says.
  if (times.length < asked) { notes[0]!.push(`the cron "${s.cron}" of ${key} has ${times.length} ticks after ${new Date(clock.now()).toISOString()}; the case asks for ${asked}: no tick ran`); return undefined; }
  // Ticks first: a retry due at a tick's instant runs after it.
  const due = times.map((at, n) => ({ at, tick: at, attempt: 1, n: n + 1 }));
  const ran: TickRun[] = [];
  let last: RunResult | undefined;
  while (due.length) {
    due.sort((a, b) => a.at - b.at);
    const e = due.shift()!;
    clock.advanceTo(e.at);
    const marks = notes.map((l) => l.length);
    const from = captures.list.length;
    const result = await runToEnd(scheduledRequest(i), { trigger: 'schedule', tick: { schedule: key, at: e.tick, attempt: e.attempt } });
    // A retry may run after a later tick: its publishes still belong to its own tick.
    const published = [...(ran[e.n - 1]?.published ?? []), ...captures.list.slice(from)];
    ran[e.n - 1] = { at: e.tick, attempt: e.attempt, result, published };
    last = result;
    const where = tickMark(e.n, e.tick, e.attempt);
    notes.forEach((l, k) => { for (let j = marks[k]!; j < l.length; j++) l[j] += where; });
    if (result.state.status === 'failed' && e.attempt < s.maxAttempts) due.push({ ...e, at: clock.now() + backoffMs(s, e.attempt), attempt: e.attempt + 1 });
  }
  return { ticks: ran, last: last! };
}

/** The answer as the server sends it and a client reads it (runtime/server/reply.ts): a string body
 *  holding JSON (a `custom_body`) is JSON on the wire, `output: none` answers 204 with no body. */
function asClientSees(r: HttpResponse, i: InterfacePlan): { status: number; headers: Record<string, string>; body: unknown } {
  const enc = encodeResponse(r, i.output);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(enc.headers)) headers[k.toLowerCase()] = v;
  const json = isJsonType(headers['content-type'] ?? '');
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
