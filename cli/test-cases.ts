// Loads a `*.tests.yaml` (hermetic test cases, docs/test-cases.md): the JSON Schema first
// (unknown fields refused), then what the schema cannot say (the interface and the actions named
// exist, a stand-in is for an action that takes one, jq/JSONPath/JSON Schema texts compile). Every
// problem is a `file:line:col` diagnostic with a code frame, as `check` prints a config's.
import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject } from 'ajv';
import { checkJsonPath, didYouMean, formatDiagnostic, parseYamlWithPositions, type ConfigPath, type Diagnostic } from '../compiler/index.ts';
import { jqCompileError, kindClass, MAX_TICKS, ticksAfter, type CaseExpect, type CaseFile, type TestCase } from '../runtime/testing/index.ts';
import { CASES_SCHEMA } from './test-cases-schema.ts';
import { color, err } from './output.ts';

/** What the loader reads of a config: its interfaces' names, methods and actions (nested too). */
export interface ActionView { name: string; kind: string; actions?: ActionView[] }
export interface PlanView { name: string; interfaces: ReadonlyArray<{ name: string; method: string; actions: ActionView[]; schedule?: unknown }> }

// verbose: an error keeps the value it is about (a choice's message says what was given).
const validate = new Ajv({ allErrors: true, strict: false, verbose: true }).compile(CASES_SCHEMA);

/** The cases of `file` for `plans`, or null after printing every problem. */
export function loadCases(file: string, plans: readonly PlanView[]): CaseFile | null {
  let text: string;
  try { text = readFileSync(file, 'utf8'); } catch (e) { err(formatDiagnostic({ file, line: 0, col: 0, severity: 'error', message: `cannot read test cases: ${(e as Error).message}` }, '', { color })); return null; }
  const { cases, diagnostics } = parseCases(file, text, plans);
  for (const d of diagnostics) err(formatDiagnostic(d, text, { color }));
  return cases;
}

/** For tests: the cases or the diagnostics, nothing printed. */
export function parseCases(file: string, text: string, plans: readonly PlanView[]): { cases: CaseFile | null; diagnostics: Diagnostic[] } {
  const y = parseYamlWithPositions(file, text);
  if (y.diagnostics.some((d) => d.severity === 'error')) return { cases: null, diagnostics: y.diagnostics };
  const ds: Diagnostic[] = [...y.diagnostics];
  const error = (path: ConfigPath, message: string, at: 'key' | 'value' = 'key', hint?: string) => ds.push({ file, ...y.locate(path, at), severity: 'error', message, path, ...(hint ? { hint } : {}) });
  if (!validate(y.value)) {
    schemaErrors(validate.errors ?? [], error);
    return { cases: null, diagnostics: ds };
  }
  const doc = y.value as { vars?: Record<string, unknown>; secrets?: Record<string, unknown>; env?: Record<string, unknown>; cases: TestCase[] };
  const out: CaseFile = { file, cases: [] };
  for (const k of ['vars', 'secrets', 'env'] as const) if (doc[k]) out[k] = Object.fromEntries(Object.entries(doc[k]).map(([n, v]) => [n, String(v)]));
  const names = new Map<string, number>();
  doc.cases.forEach((c, n) => {
    const at: ConfigPath = ['cases', n];
    const first = names.get(c.name);
    if (first !== undefined) error([...at, 'name'], `case name "${c.name}" is used twice (first at case ${first + 1}): names identify cases in reports`, 'value');
    names.set(c.name, n);
    const found = resolveInterface(c.interface, plans);
    if (typeof found === 'string') return error([...at, 'interface'], found, 'value');
    checkCase(c, at, found.iface, error);
    if (c.schedule) checkSchedule(c, at, `${found.plan}.${found.iface.name}`, found.iface, error);
    out.cases.push({ ...c, config: found.plan, iface: found.iface.name, line: y.locate(at, 'value').line });
  });
  return { cases: ds.some((d) => d.severity === 'error') ? null : out, diagnostics: ds };
}

type Report = (path: ConfigPath, message: string, at?: 'key' | 'value', hint?: string) => void;

function schemaErrors(errors: ErrorObject[], error: Report): void {
  // The branches of an anyOf each report why they failed: the anyOf's own line says it better.
  const branched = errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath);
  // A value outside a list of choices (a stand-in's `transport`, `refused`) is said as such, in its own place.
  const chosen = errors.filter((e) => e.keyword === 'enum').map((e) => e.instancePath);
  for (const e of errors) {
    const path = e.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~')).map((s) => (/^\d+$/.test(s) ? Number(s) : s));
    const where = e.instancePath === '' ? 'the file' : e.instancePath.slice(1).replace(/\//g, '.');
    if (e.keyword === 'additionalProperties') {
      const field = String((e.params as { additionalProperty: string }).additionalProperty);
      error([...path, field], `unknown field "${field}" in ${where}`, 'key', 'docs/test-cases.md lists the fields a cases file takes');
    } else if (e.keyword === 'type' && path.at(-1) === 'ticks') {
      error(path, `${where} must be a number of ticks (1–${MAX_TICKS}) or a list with one entry per tick ({ expect: ... } or {})`, 'value');
    } else if (e.keyword === 'enum') {
      const allowed = (e.params as { allowedValues: unknown[] }).allowedValues;
      // `refused: "403"` is not 403: what was given says why the value is refused.
      error(path, `${where} must be one of ${allowed.join(', ')}; got ${JSON.stringify(e.data)}`, 'value');
    } else if (e.keyword === 'anyOf') {
      if (chosen.some((p) => p.startsWith(`${e.instancePath}/`))) continue;
      error(path, `${where} must be a stand-in result ({ data: ... } or { error: "..." }) or a list of them`, 'value');
    } else if (!branched.some((p) => e.schemaPath.includes('/anyOf/') && e.instancePath.startsWith(p))) {
      error(path, `${where} ${e.message ?? 'is invalid'}`, e.keyword === 'required' ? 'key' : 'value');
    }
  }
}

function resolveInterface(name: string, plans: readonly PlanView[]): string | { plan: string; iface: PlanView['interfaces'][number] } {
  const dot = name.indexOf('.');
  const scoped = dot > 0 ? plans.filter((p) => p.name === name.slice(0, dot)) : [];
  const iname = scoped.length ? name.slice(dot + 1) : name;
  const hits = (scoped.length ? scoped : plans).flatMap((p) => p.interfaces.filter((i) => i.name === iname).map((iface) => ({ plan: p.name, iface })));
  if (hits.length === 1) return hits[0]!;
  if (hits.length > 1) return `interface "${name}" is in configs ${hits.map((h) => h.plan).join(' and ')}: write config.interface`;
  const all = plans.flatMap((p) => p.interfaces.map((i) => i.name));
  return `no interface "${name}" in ${plans.map((p) => p.name).join(', ')}${maybe(didYouMean(name, all))}`;
}

const maybe = (s: string | undefined) => (s ? `: ${s}` : '');
/** "a" or "an" before an action kind's name ("an input", "a lookup"). */
const article = (kind: string) => (/^[aeiou]/.test(kind) ? 'an' : 'a');

function actionsOf(list: readonly ActionView[]): ActionView[] {
  return list.flatMap((a) => [a, ...actionsOf(a.actions ?? [])]);
}

/** A `schedule:` case: its interface has a cron schedule, it sends no request (the scheduler sends
 *  none: runtime/schedule/scheduler.ts scheduledRequest), and `from` is a time. */
function checkSchedule(c: TestCase, at: ConfigPath, key: string, iface: PlanView['interfaces'][number], error: Report): void {
  const path = [...at, 'schedule'];
  if (!iface.schedule) return error(path, `interface "${iface.name}" has no schedule: a case runs its ticks only when the interface has \`schedule: { cron: ... }\``, 'key', 'drop schedule: and send a request: instead');
  if (c.request) error([...at, 'request'], 'a scheduled run receives no request (the scheduler sends none): a case with schedule: has no request:', 'key');
  const from = c.schedule!.from;
  if (from !== undefined && !(/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(from) && Number.isFinite(Date.parse(from)))) {
    error([...path, 'from'], `schedule.from must be an ISO 8601 time with its zone, such as 2026-03-01T00:00:00Z; got ${JSON.stringify(from)}`, 'value');
  }
  try { ticksAfter(key, iface, 0, 1); } catch (e) { error(path, (e as Error).message, 'key'); }
  const ticks = c.schedule!.ticks;
  if (!Array.isArray(ticks)) return;
  // One place for each expectation: the ticks' entries, so the last tick's is not said twice.
  if (c.expect) error([...at, 'expect'], 'with schedule.ticks as a list, each tick has its own expect: move this one into the entry of the tick it is about (the last tick: its answer; published: into each tick that publishes)', 'key');
  ticks.forEach((t, k) => { if (t.expect) checkExpectFields(t.expect, [...path, 'ticks', k, 'expect'], error); });
}

function checkCase(c: TestCase, at: ConfigPath, iface: PlanView['interfaces'][number], error: Report): void {
  const methods = iface.method.split(',').map((m) => m.trim().toUpperCase());
  if (c.request?.method && !methods.includes(c.request.method.toUpperCase())) error([...at, 'request', 'method'], `interface "${iface.name}" takes ${methods.join(', ')}, not ${c.request.method}`, 'value');
  if (c.request?.body !== undefined && c.request.raw_body !== undefined) error([...at, 'request', 'raw_body'], 'a request has body or raw_body, not both');
  const actions = new Map(actionsOf(iface.actions).map((a) => [a.name, a]));
  const unknown = (path: ConfigPath, name: string) => error(path, `interface "${iface.name}" has no action "${name}"${maybe(didYouMean(name, actions.keys()))}`);
  for (const [name, given] of Object.entries(c.actions ?? {})) {
    const path = [...at, 'actions', name];
    const a = actions.get(name);
    if (!a) { unknown(path, name); continue; }
    const cls = kindClass(a.kind);
    // An http action may be stood in by name too (then it sends nothing): --from-run writes them so,
    // a run record keeping no URL.
    // So may a lookup, whole: its items then do not run (a run record keeps only the lookup's result).
    if (cls === 'in-process' && a.kind !== 'lookup') error(path, `action "${name}" is ${article(a.kind)} ${a.kind}, which runs in the test as it does in service: it takes no stand-in`);
    (Array.isArray(given) ? given : [given]).forEach((r, k) => {
      const p = Array.isArray(given) ? [...path, k] : path;
      if ((r.data === undefined) === (r.error === undefined)) error(p, `a stand-in result has either data or error (got ${r.data === undefined ? 'neither' : 'both'})`, 'value');
      else if (r.transport !== undefined && r.error === undefined) error([...p, 'transport'], 'transport is the class of a failure: it goes with error, not with data', 'key');
      else if (r.refused !== undefined && r.error === undefined) error([...p, 'refused'], 'refused is the status of a refusal: it goes with error, not with data', 'key');
      else if (r.refused !== undefined && r.transport !== undefined) error([...p, 'refused'], 'a failure is a transport failure or a refusal, not both: give transport or refused', 'key');
    });
  }
  c.callbacks?.forEach((cb, k) => {
    const path = [...at, 'callbacks', k];
    const a = actions.get(cb.action);
    if (!a) unknown([...path, 'action'], cb.action);
    else if (a.kind !== 'wait_for_callback') error([...path, 'action'], `action "${cb.action}" is ${article(a.kind)} ${a.kind}, not a wait_for_callback`, 'value');
    if (cb.timeout && cb.body !== undefined) error(path, 'a scripted callback either posts a body or times out, not both');
  });
  if (c.expect) checkExpectFields(c.expect, [...at, 'expect'], error);
}

/** What the schema cannot say of an `expect` (a case's or one tick's, at `path`). */
function checkExpectFields(e: CaseExpect, path: ConfigPath, error: Report): void {
  if (e.jq !== undefined) { const bad = jqCompileError(e.jq); if (bad) error([...path, 'jq'], `jq does not compile: ${bad.message.split('\n')[0]}`, 'value'); }
  if (e.jsonpath !== undefined) { const bad = checkJsonPath(e.jsonpath); if (bad) error([...path, 'jsonpath'], bad.message, 'value'); }
  if (e.body_schema !== undefined) {
    try { new Ajv({ strict: false }).compile(e.body_schema as object); } catch (x) { error([...path, 'body_schema'], `body_schema is not a valid JSON Schema: ${(x as Error).message}`); }
  }
  e.published?.forEach((p, k) => {
    const at = [...path, 'published', k];
    const kinds = (['mqtt', 'ws', 'email', 'metric'] as const).filter((x) => p[x] !== undefined);
    if (kinds.length !== 1) return error(at, `a published entry names one of mqtt, ws, email or metric (got ${kinds.length ? kinds.join(', ') : 'none'})`, 'value');
    if (p.message !== undefined && kinds[0] !== 'mqtt' && kinds[0] !== 'ws') error([...at, 'message'], 'message is for mqtt and ws entries');
    if ((p.value !== undefined || p.labels !== undefined) && kinds[0] !== 'metric') error([...at, p.value !== undefined ? 'value' : 'labels'], 'value and labels are for metric entries');
  });
}

