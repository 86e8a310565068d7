// `pipewright test <config.yaml> --from-run <run id>`: a run kept by a server (the runs API, or the
// store itself) becomes a case appended to `<config>.tests.yaml`, so a failure seen in production is
// a regression test in one step. The run record keeps no outbound URL, so every outbound action is
// stood in by its name (`actions:`), with the data (or error, and its transport failure's class or
// its refusal's status) the run recorded for it (a lookup whose items call out, whole: the record
// keeps no item's calls; a failed email or publish with its failure; none for an action refused
// before it ran, which the case's request makes refuse again); the expected answer is the status and
// body the run answered with. Values redacted in the record stay redacted.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Document, isSeq, parseDocument, type YAMLSeq } from 'yaml';
import type { ActionPlan, Plan } from '../runtime/index.ts';
import { fromOfTickRun, isHttpStatus, isJsonType, isRefusalStatus, isTransportClass, kindClass, REFUSAL_STATUSES, runFromServer, runFromStore, RunSourceError, TRANSPORT_CLASSES, type RunDetail } from '../runtime/testing/index.ts';
import { fastpathDisabled, loadPlans } from './load-plans.ts';
import { err } from './output.ts';

export interface FromRunOptions {
  'from-run'?: string;
  server?: string;
  'admin-token-file'?: string;
  cases?: string;
  'no-fastpath'?: boolean;
}

/** Kinds a case stands in by name: http, agent and the other outbound kinds (runtime/testing's kind
 *  classes). The in-process kinds run for real, a lookup too unless its items call out
 *  (lookupStandIn); the captured ones are captured (`expect.published`). */
const standsIn = (kind: string): boolean => { const c = kindClass(kind); return c === 'http' || c === 'outbound'; };
/** Request headers that belong to the connection that carried the run's request, not to the request. */
const TRANSPORT_HEADERS = new Set(['host', 'content-length', 'connection', 'keep-alive', 'transfer-encoding', 'te', 'upgrade', 'expect']);

/** `api.yaml` → `api.tests.yaml` (the cases file beside the config). */
export const casesFileOf = (config: string): string => `${config.replace(/\.ya?ml$/i, '')}.tests.yaml`;

/** Flags that do not go together with --from-run (or only with it): said, never ignored. */
export function fromRunFlagProblem(o: FromRunOptions & { record?: boolean; reporter?: string; 'require-tests'?: boolean; 'pass-with-no-tests'?: boolean }): string | undefined {
  if (o['from-run'] === undefined) {
    const only = (['server', 'admin-token-file'] as const).filter((k) => o[k] !== undefined);
    return only.length ? `--${only.join(' and --')} only go with --from-run <run id>` : undefined;
  }
  const not = (['record', 'reporter', 'require-tests', 'pass-with-no-tests'] as const).filter((k) => o[k] !== undefined);
  if (not.length) return `--from-run writes a case and runs nothing: --${not.join(', --')} do not go with it (run pipewright test afterwards)`;
  if (o['admin-token-file'] !== undefined && o.server === undefined) return '--admin-token-file goes with --server URL (the token of that server\'s runs API)';
  return undefined;
}

export async function fromRun(files: string[], o: FromRunOptions): Promise<number> {
  const id = o['from-run']!;
  if (files.length !== 1) { err('--from-run takes one config: the one the run ran'); return 2; }
  // The run first: a refusal (no token, no such run) comes before the config is compiled.
  let detail: RunDetail;
  try {
    detail = await readRun(id, o);
  } catch (e) {
    if (e instanceof RunSourceError) { err(`pipewright: --from-run ${id}: ${e.message}`); return 1; }
    throw e;
  }
  const plans = await loadPlans(files, fastpathDisabled(o['no-fastpath']));
  if (!plans) return 1;
  const plan = plans[0]!;
  let made;
  try { made = runCase(plan, detail); } catch (e) {
    if (e instanceof RunSourceError) { err(`pipewright: --from-run ${id}: ${e.message}`); return 1; }
    throw e;
  }
  const file = o.cases ?? casesFileOf(files[0]!);
  const problem = appendCase(file, made.case, made.comment);
  if (problem) { err(`pipewright: ${file}: ${problem}`); return 1; }
  err(`added case "${made.case.name}" to ${file}${made.notes.length ? `\n${made.notes.map((n) => `  note: ${n}`).join('\n')}` : ''}`);
  return 0;
}

async function readRun(id: string, o: FromRunOptions): Promise<RunDetail> {
  if (o.server !== undefined) {
    const token = o['admin-token-file'] !== undefined ? readToken(o['admin-token-file']) : process.env.SERVICE__ADMIN_TOKEN;
    if (!token) throw new RunSourceError('reading a run from --server needs the admin token: set SERVICE__ADMIN_TOKEN or pass --admin-token-file FILE');
    return runFromServer(o.server, id, token);
  }
  if (!process.env.SERVICE__DATABASE_URL) throw new RunSourceError('say where the run is: --server URL (a serving node with SERVICE__ADMIN_TOKEN), or SERVICE__DATABASE_URL to read the store directly');
  return runFromStore(process.env, id);
}

function readToken(file: string): string {
  try { return readFileSync(file, 'utf8').trim(); } catch (e) { throw new RunSourceError(`--admin-token-file ${file}: ${(e as Error).message}`); }
}

export interface RunCase {
  name: string;
  interface: string;
  request?: Record<string, unknown>;
  /** A tick's run becomes its tick (runtime/testing/ticks.ts): no request. */
  schedule?: { from: string; ticks: 1 };
  actions?: Record<string, Record<string, unknown>>;
  callbacks?: Array<Record<string, unknown>>;
  expect: Record<string, unknown>;
}

/** The case a run makes, the comment above it, and notes for the terminal. */
export function runCase(plan: Plan, d: RunDetail): { case: RunCase; comment: string; notes: string[] } {
  if (d.config !== plan.name) throw new RunSourceError(`the run is of config "${d.config}", not of ${plan.name}: give that config`);
  const iface = plan.interfaces.find((i) => i.name === d.interface);
  if (!iface) throw new RunSourceError(`the run is of interface "${d.interface}", which ${plan.name} no longer has`);
  if (!['succeeded', 'failed', 'cancelled'].includes(d.status)) throw new RunSourceError(`the run is ${d.status}: only a finished run can become a test case`);
  if (!d.outcome) throw new RunSourceError('the run record holds no response: nothing to expect');
  const notes: string[] = [];
  // Keyed by action names, which a config may spell `__proto__` or `constructor`: own keys only.
  const actions = Object.create(null) as Record<string, Record<string, unknown>>;
  const callbacks: Array<Record<string, unknown>> = [];
  for (const a of d.actions as Array<Record<string, unknown> & { name: string; outcome: string }>) {
    const plain = findAction(iface.actions, a.name);
    // The name is the record's, not the config's: quoted as JSON (a control character is escaped,
    // never written to the terminal or the comment as it is).
    if (!plain) { notes.push(`action ${JSON.stringify(a.name)} is not in the config any more: left out`); continue; }
    if (a.outcome !== 'succeeded' && a.outcome !== 'failed') continue; // skipped: it does not run again either
    if (plain.kind === 'wait_for_callback') {
      callbacks.push(a.outcome === 'succeeded' ? { action: a.name, body: a.data ?? null } : { action: a.name, timeout: true });
      continue;
    }
    const given = plain.kind === 'lookup' ? lookupStandIn(plain, a, notes)
      : standsIn(plain.kind) || (kindClass(plain.kind) === 'captured' && a.outcome === 'failed') ? standIn(plain, a, notes)
      : undefined;
    if (given) actions[a.name] = given;
  }
  const rq = d.request;
  const request: Record<string, unknown> = { method: rq.method };
  if (Object.keys(rq.params).length) request.params = rq.params;
  const headers = Object.fromEntries(Object.entries(rq.headers).filter(([k]) => !TRANSPORT_HEADERS.has(k.toLowerCase())));
  if (Object.keys(headers).length) request.headers = headers;
  if (rq.body !== null && rq.body !== undefined) {
    const json = isJsonType(String(headers['content-type'] ?? ''));
    if (typeof rq.body === 'string' && !json) request.raw_body = rq.body; else request.body = rq.body;
  }
  const expect: Record<string, unknown> = { status: d.outcome.http_code };
  if (d.outcome.body !== undefined) expect.body = d.outcome.body;
  const name = `run ${d.id}`;
  // A tick's run is run again as its tick (the scheduler's run gets no request to replay).
  const from = d.trigger === 'schedule' ? fromOfTickRun(`${plan.name}.${iface.name}`, iface, Date.parse(d.started_at)) : undefined;
  const c: RunCase = { name, interface: d.interface, ...(from ? { schedule: { from, ticks: 1 as const } } : { request }), ...(Object.keys(actions).length ? { actions } : {}), ...(callbacks.length ? { callbacks } : {}), expect };
  const redacted = JSON.stringify(c).includes('[redacted]');
  const comment = [
    ` From run ${d.id} (${d.config}.${d.interface}, ${d.status}, answered ${d.outcome.http_code}), started ${d.started_at}: pipewright test --from-run.`,
    ' Outbound actions are stood in by name with what the run recorded for them.',
    ...(redacted ? [' Values shown as [redacted] were secrets or credentials in the run record and stay redacted here: put test values in their place where the run needs them.'] : []),
    ...notes.map((n) => ` Note: ${n}.`),
  ].join('\n');
  return { case: c, comment, notes };
}

/** The stand-in of an outbound action: what its kind gave the run (before post_transforms). A
 *  captured kind (email, a publish) that failed was not delivered, so nothing is captured: it is
 *  stood in with its failure (a denied SMTP server, a broker down). None for an action refused while
 *  its settings were filled in: the case's request makes it refuse by itself. */
function standIn(plan: ActionPlan, a: Record<string, unknown>, notes: string[]): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  if (a.outcome === 'failed') {
    const failed = failedWith(a, notes);
    if (!failed) return undefined;
    Object.assign(out, failed);
  }
  // An HTTP action's record keeps the body as received where post_transforms changed it (`body`).
  else if (plan.kind === 'http' && 'body' in a) out.data = a.body;
  else {
    out.data = a.data ?? null;
    if (plan.post || plan.jsonOutput) notes.push(`action "${a.name}" has post_transforms/json_output and its record keeps only their result: its stand-in data is that result, edit it to what the ${plan.kind} action returns`);
  }
  if (a.http_status !== undefined) {
    if (isHttpStatus(a.http_status)) out.status = a.http_status;
    else notes.push(`action "${a.name}": the run record gives http_status ${JSON.stringify(a.http_status)}, which is no HTTP status: left out`);
  }
  return out;
}

/** A failed action's message as the cases file takes it (a non-empty string); a record that holds
 *  something else there gets the runtime's own word for a failure without one, said. */
function errorOf(a: Record<string, unknown>, notes: string[]): string {
  if (typeof a.error === 'string' && a.error !== '') return a.error;
  if (a.error !== undefined) notes.push(`action "${a.name}": the run record gives error ${JSON.stringify(a.error)}, which is no message: its stand-in fails with "failed"`);
  return 'failed';
}

/** A failed action's stand-in: its error, and the class of its transport failure or the status of
 *  its refusal when the record has one (the run answered 504 or 502, or the refusal's status, by it,
 *  and retried by it). Undefined when the record says the refusal came from the action's settings or
 *  input, before its kind ran: the case replays the run's request, which the action refuses again by
 *  itself before any stand-in is asked (one given would go unused). The record is data read from a
 *  store or another server: a class or status this runtime does not have is left out, and said. A
 *  record written before these fields existed has none: the stand-in is a plain error, as it was then. */
function failedWith(a: Record<string, unknown>, notes: string[]): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = { error: errorOf(a, notes) };
  if (a.transport !== undefined) {
    if (isTransportClass(a.transport)) out.transport = a.transport;
    else notes.push(`action "${a.name}": the run record gives transport ${JSON.stringify(a.transport)}, which is none of ${TRANSPORT_CLASSES.join(', ')}: left out, its stand-in fails as a plain error`);
    return out;
  }
  if (a.refused === undefined) return out;
  if (!isRefusalStatus(a.refused)) {
    notes.push(`action "${a.name}": the run record gives refused ${JSON.stringify(a.refused)}, which is none of the statuses the runtime refuses with (${REFUSAL_STATUSES.join(', ')}): left out, its stand-in fails as a plain error`);
    return out;
  }
  if (a.refused_in === 'settings') {
    notes.push(`action "${a.name}" was refused (${a.refused}) while its settings or input were filled in, before it ran: the case replays what filled them (the request, the earlier actions' results), so it refuses again by itself and has no stand-in`);
    return undefined;
  }
  if (a.refused_in !== undefined) notes.push(`action "${a.name}": the run record gives refused_in ${JSON.stringify(a.refused_in)}, which is not settings: taken as refused by the action itself`);
  out.refused = a.refused;
  return out;
}

/** A lookup whose items call out (an http, agent or outbound action among its nested ones, at any
 *  depth) is stood in whole with its recorded result: the run record keeps each item's result inside
 *  the lookup's, never the calls an item made, so its items cannot be stood in one call at a time.
 *  Undefined when nothing is needed (its items run in process, or it failed before any item ran).
 *  Refused when the record holds the result after the lookup's post_transforms/json_output: the
 *  stand-in must be what the lookup itself returned, and that is not in the record. */
function lookupStandIn(plan: ActionPlan, a: Record<string, unknown>, notes: string[]): Record<string, unknown> | undefined {
  const calls = callsOut(plan.actions ?? []);
  if (!calls.length) return undefined;
  // Too many items: refused before any item runs, so the case's lookup fails the same way by itself.
  if (a.outcome === 'failed' && /^lookup: \d+ items, more than the \d+ a lookup may run/.test(String(a.error))) return undefined;
  // A lookup that timed out (its own `timeout`) failed as a transport timeout, and one whose items
  // (a jq bound) were refused failed as a refusal: the record says so.
  if (a.outcome === 'failed') return failedWith(a, notes);
  if (plan.post || plan.jsonOutput) {
    const named = calls.map((c) => `${c.name} (${c.kind})`).join(', ');
    throw new RunSourceError(`action "${a.name}" is a lookup whose items call out (${named}) and which has post_transforms/json_output: the run record keeps only its result after them, not what each item's calls returned nor what the lookup returned before them, so no stand-in can be written for it. Write this case by hand: give ${calls.map((c) => c.name).join(', ')} results under actions: (a list answers one call each), or ${a.name} its result before its post_transforms`);
  }
  return { data: a.data ?? null };
}

/** The nested actions (any depth) a case cannot run without a stand-in or a recording. */
function callsOut(list: readonly ActionPlan[]): ActionPlan[] {
  return list.flatMap((x) => [...(standsIn(x.kind) ? [x] : []), ...callsOut(x.actions ?? [])]);
}

function findAction(list: readonly ActionPlan[], name: string): ActionPlan | undefined {
  for (const a of list) {
    if (a.name === name) return a;
    const inner = a.actions && findAction(a.actions, name);
    if (inner) return inner;
  }
  return undefined;
}

/** Appends the case to the file's `cases:` list, keeping what is there (comments included);
 *  returns the problem instead when it cannot. */
export function appendCase(file: string, c: RunCase, comment: string): string | undefined {
  const doc = existsSync(file) ? parseDocument(readFileSync(file, 'utf8')) : new Document({ cases: [] });
  if (doc.errors.length) return `not valid YAML, left as it is: ${doc.errors[0]!.message}`;
  let cases = doc.get('cases', true);
  if (cases === undefined) { doc.set('cases', doc.createNode([])); cases = doc.get('cases', true); }
  if (!isSeq(cases)) return '`cases` is not a list, left as it is';
  const seq = cases as YAMLSeq;
  if (seq.items.some((n) => (n as { get?: (k: string) => unknown }).get?.('name') === c.name)) return `a case named "${c.name}" is there already`;
  const node = doc.createNode(c);
  node.commentBefore = comment;
  seq.items.push(node);
  seq.flow = false; // `cases: []` becomes a block list: a case with a comment above it reads as one
  writeFileSync(file, doc.toString({ lineWidth: 0 }));
  return undefined;
}
