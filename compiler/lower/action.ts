// One Action → ActionIR: kind settings as an interpolated node, conditions, retry, asserts, transforms.
import type { ActionIR, CondIR, RetryIR } from '../../runtime/config-ir.ts';
import type { Expr, Node } from '../../runtime/ir.ts';
import { statusMatches, type StatusExpectation } from '../../runtime/actions/http/expect-status.ts';
import type { Action, ActionDefaults, ActionResponse, Retry, RunCondition, StringMap } from '../schema/config-types.ts';
import { actionKind } from './action-kind.ts';
import { durationAt, LowerError, type Path } from './error.ts';
import { databaseConfig, documentConfig } from './database.ts';
import { discoverConfig } from './discover.ts';
import { COMMAND_DEFAULT_TIMEOUT_MS, commandConfig } from './command.ts';
import { cloudConfig } from './cloud.ts';
import { lowerAssert, lowerTest } from './tests.ts';
import { lowerPath, lowerTransforms } from './transforms.ts';
import { lowerInput, lowerValue, refsOf } from './values.ts';
import { jsonPositions, urlPositions } from './positions.ts';
import { topicLevels } from './confine.ts';
import { structured, structuredAt } from './structured.ts';

export interface LowerCtx {
  lineOf(path: Path): number;
  defaults: ActionDefaults;
  supported: Set<string>;
  features: Record<string, boolean>;
  /** The config's `databases:` declarations, by name. */
  databases: Record<string, unknown>;
}

const RESOLVES = lowerTest({ is_not_null: true });

export function lowerAction(a: Action, at: Path, index: number, cx: LowerCtx): ActionIR {
  const name = a.name ?? a.action ?? `action_${index + 1}`;
  const kind = actionKind(a);
  if (!cx.supported.has(kind)) {
    throw new LowerError(`action kind "${kind}" is not available in this build`, at, `supported kinds: ${[...cx.supported].join(', ')}`);
  }
  const ir: ActionIR = { name, line: cx.lineOf(at), kind, hide: hideFlags(a) };
  const config = kindConfig(kind, a, at, cx);
  if (config) ir.config = config;
  const inputs = [a.input, ...(a.input_fallbacks ?? [])].filter((x) => x !== undefined);
  if (inputs.length) ir.input = inputs.map((v) => structured(lowerInput(v)) as Expr);
  if (a.conditional_input) {
    ir.conditionalInput = a.conditional_input.map((c) =>
      // A plain string is taken when it resolves (spec: "a list of input strings tried in order"):
      // the same is_not_null test an object entry would write, so both paths share the rule.
      typeof c === 'string' ? { input: structured(lowerInput(c)) as Expr, tests: [RESOLVES] } : { input: structured(lowerInput(c.input)) as Expr, tests: c.tests.map(lowerTest) },
    );
  }
  for (const [field, key] of [['run_when_succeeded', 'succeeded'], ['run_when_failed', 'failed'], ['depends_on', 'depends']] as const) {
    if (a[field] !== undefined) ir[key] = cond(a[field]);
  }
  const onAssertion = lowerAssert(a.run_on_assertion);
  if (onAssertion) ir.onAssertion = onAssertion;
  const timeout = durationAt(a.timeout, [...at, 'timeout']) ?? (kind === 'command' ? COMMAND_DEFAULT_TIMEOUT_MS : undefined);
  if (timeout !== undefined) ir.timeoutMs = timeout;
  if (a.retry) ir.retry = retry(a.retry, [...at, 'retry']);
  const asserted = lowerAssert(a.assert);
  if (asserted) ir.assert = asserted;
  const post = lowerTransforms(a.post_transforms, [...at, 'post_transforms'], cx);
  if (post.length) ir.post = post;
  if (a.json_output !== undefined) ir.jsonOutput = jsonOutput(a.json_output, at);
  if (a.output !== undefined) ir.output = a.output;
  if (a.replayable === false) ir.notReplayable = true;
  for (const [field, key] of [['response_on_success', 'responseOnSuccess'], ['response_on_error', 'responseOnError']] as const) {
    const r: ActionResponse | undefined = a[field];
    if (r) ir[key] = { ...(r.http_code !== undefined ? { httpCode: r.http_code } : {}), ...(r.headers ? { headers: lowerValue(r.headers) } : {}), ...(r.body !== undefined ? { body: jsonPositions(lowerValue(r.body)) } : {}) };
  }
  if (kind === 'lookup') {
    const itemTimeout = durationAt(a.item_timeout, [...at, 'item_timeout']);
    const over = structured(lowerInput(a.lookup)) as Expr;
    ir.lookup = {
      over,
      concurrency: Math.max(1, a.lookup_concurrency ?? 10),
      partition: a.lookup_partition === true,
      ...(itemTimeout !== undefined ? { itemTimeoutMs: itemTimeout } : {}),
      ...(a.lookup_max_items !== undefined ? { maxItems: a.lookup_max_items } : {}),
      ...(over.k === 'ref' && REQUEST_ROOTS.has(over.ref.root) ? { fromRequest: true } : {}),
    };
    const inherit = [
      ...entries(a.lookup_inherit).map(([k, p]) => ({ k: 'arr', items: [{ k: 'lit', v: k }, lowerPath(p)] }) as Node),
      ...entries(a.lookup_inherit_jq).map(([k, src]) => ({ k: 'arr', items: [{ k: 'lit', v: k }, { k: 'jq', src }] }) as Node),
    ];
    if (inherit.length) ir.lookup.inherit = { k: 'arr', items: inherit };
    ir.actions = (a.actions ?? []).map((n, i) => lowerAction(n, [...at, 'actions', i], i, cx));
  }
  const hint = kind === 'http' ? assertStatusHint(a, name, [...at, a.http ? 'http' : 'url'], cx) : undefined;
  if (hint) ir.assertStatusHint = hint;
  const logFields = { pre: a.pre_log, post: a.post_log, error: a.error_log, success: a.success_log, retry: a.retry_log };
  for (const phase of ['pre', 'post', 'error', 'success', 'retry'] as const) {
    const list = logFields[phase];
    if (Array.isArray(list) && list.length) (ir.logs ??= {})[phase] = lowerValue(list);
  }
  const keys = stateKeysOf(ir);
  if (keys.length) ir.stateKeys = keys;
  const reads = actionsRead(ir);
  if (reads.length) ir.reads = reads;
  return ir;
}

/** The document operation's fields that hold documents or query data (structured.ts). */
const DOCUMENT_DATA = ['insert', 'filter', 'update', 'replacement', 'projection', 'sort'] as const;

/** Marker roots whose value the request chooses. */
const REQUEST_ROOTS = new Set(['body', 'raw_body', 'params', 'headers']);

const entries = (m: StringMap | undefined): Array<[string, string]> => Object.entries(m ?? {});

function kindConfig(kind: string, a: Action, at: Path, cx: LowerCtx): Node | undefined {
  if (kind === 'http') {
    const http: Record<string, unknown> = { ...a.http };
    if (http.url === undefined && a.url !== undefined) http.url = a.url;
    // `method: { extension: PROPFIND }`: the schema's form for a method outside the standard list
    // (so a typo of a standard one is still refused); the request sends the token as written.
    const m = http.method;
    if (m !== null && typeof m === 'object' && typeof (m as { extension?: unknown }).extension === 'string') http.method = (m as { extension: string }).extension;
    const dflt = cx.defaults.expect_status;
    if (http.expect_status === undefined && dflt !== undefined) http.expect_status = dflt;
    const node = lowerValue(http);
    if (node.k !== 'obj') return node;
    const where = [...at, ...(a.http ? ['http', 'url'] : ['url'])];
    // A JSON template body gets custom_body's escaping: a value stays one JSON string or value.
    return { k: 'obj', props: node.props.map(([k, x]) => [k, k === 'url' ? urlPositions(x as Expr, where) : k === 'body' ? structured(jsonPositions(x as Expr)) : x]) };
  }
  if (kind === 'input' || kind === 'lookup') return undefined;
  const fields = a as Record<string, unknown>;
  if (kind === 'database') return structuredAt(databaseConfig(fields, at, cx.databases), ['params']);
  if (kind === 'document_operation') return structuredAt(documentConfig(fields, at, cx.databases), DOCUMENT_DATA);
  if (kind === 'discover') return discoverConfig(fields.discover, at);
  if (kind === 'command') return commandConfig(fields, at);
  if (kind === 'aws' || kind === 'google') return cloudConfig(kind, fields[kind] as Record<string, unknown>, at);
  const node = lowerValue(fields[kind]);
  if (kind === 'mqtt_publish' && node.k === 'obj') return structuredAt({ k: 'obj', props: node.props.map(([k, x]) => [k, k === 'topics' ? topicLevels(x) : x]) }, ['data', 'topics']);
  if (kind === 'ws_publish') return structuredAt(node, ['data', 'channels']);
  if (kind === 'email') return structuredAt(node, ['to', 'cc', 'bcc']);
  if (kind === 'state' && node.k === 'obj') return { k: 'obj', props: node.props.map(([k, x]) => [k, k === 'set' || k === 'advance' ? structuredAt(x, ['value']) : x]) };
  // The settings of every other kind are the field named for it.
  return node;
}

function cond(v: RunCondition): CondIR {
  if (Array.isArray(v)) return { actions: v };
  return {
    actions: v.actions,
    ...(v.at_least !== undefined ? { atLeast: v.at_least } : {}),
    ...(v.http_code_on_error !== undefined ? { httpCodeOnError: v.http_code_on_error } : {}),
  };
}

function retry(r: Retry, at: Path): RetryIR {
  const out: RetryIR = {
    attempts: Math.max(1, r.attempts),
    delay: durationAt(r.delay, [...at, 'delay']) ?? 0,
    exponential: r.exponential_backoff === true,
    jitter: r.jitter === 'none' ? 'none' : 'full',
    respectRetryAfter: r.respect_retry_after !== false,
  };
  const maxDelay = durationAt(r.max_delay, [...at, 'max_delay']);
  if (maxDelay !== undefined) out.maxDelay = maxDelay;
  if (r.on) out.on = r.on;
  if (r.except) out.except = r.except;
  return out;
}

function jsonOutput(v: StringMap | string, at: Path): NonNullable<ActionIR['jsonOutput']> {
  let o = v;
  if (typeof v === 'string') {
    try { o = JSON.parse(v); } catch { throw new LowerError('json_output must be a mapping of name to jq path (or that mapping as a JSON string)', [...at, 'json_output']); }
  }
  if (!o || typeof o !== 'object' || Array.isArray(o)) throw new LowerError('json_output must be a mapping of name to jq path', [...at, 'json_output']);
  return Object.entries(o).map(([k, jq]) => [k, { k: 'jq', src: String(jq) }]);
}

function hideFlags(a: Action): ActionIR['hide'] {
  const h: ActionIR['hide'] = {};
  if (a.hide_action === true) h.action = true;
  if (a.hide_data_on_success === true) h.dataOnSuccess = true;
  if (a.hide_data_on_error === true) h.dataOnError = true;
  if (a.hide_data_on_empty === true) h.dataOnEmpty = true;
  if (a.hide_errors === true) h.errors = true;
  if (a.hide_metrics === true) h.metrics = true;
  return h;
}

function refsRead(ir: ActionIR) {
  const nodes: Array<Node | Expr | undefined> = [ir.config, ...(ir.input ?? [])];
  for (const c of ir.conditionalInput ?? []) nodes.push(c.input);
  if (ir.lookup) nodes.push(ir.lookup.over);
  return nodes.flatMap((n) => refsOf(n));
}

function stateKeysOf(ir: ActionIR): string[] {
  return [...new Set(refsRead(ir).filter((r) => r.root === 'state' && r.name).map((r) => r.name!))].sort();
}

function actionsRead(ir: ActionIR): string[] {
  return [...new Set(refsRead(ir).filter((r) => r.root === 'action' && r.name !== ir.name).map((r) => r.name!))].sort();
}

/** Statuses the assert names for this action's own status (`value: a|Self::status|`) that
 * expect_status would refuse: the failure message then says which line to add. */
function assertStatusHint(a: Action, name: string, at: Path, cx: LowerCtx): ActionIR['assertStatusHint'] {
  const tests = a.assert?.tests ?? [];
  const statuses = new Set<number>();
  for (const t of tests) {
    const v = typeof t.value === 'string' ? lowerInput(t.value) : undefined;
    if (!v || v.k !== 'ref' || v.ref.root !== 'action' || v.ref.name !== name || v.ref.part !== 'status') continue;
    for (const x of [t.is_equal_to, ...(Array.isArray(t.is_one_of) ? t.is_one_of : [])]) if (typeof x === 'number') statuses.add(x);
  }
  const expect: StatusExpectation = a.http?.expect_status ?? cx.defaults.expect_status;
  const accepted = (s: number) => statusMatches(expect, s);
  const refused = [...statuses].filter((s) => !accepted(s)).sort((x, y) => x - y);
  return refused.length ? { statuses: refused, line: cx.lineOf(at) } : undefined;
}
