// One Action → ActionIR: kind settings as an interpolated node, conditions, retry, asserts, transforms.
import type { ActionIR, CondIR, RetryIR } from '../../runtime/config-ir.ts';
import type { Expr, Node } from '../../runtime/ir.ts';
import { actionKind } from './action-kind.ts';
import { statusMatches } from '../../runtime/actions/http/expect-status.ts';
import { optionalDurationMs } from '../../runtime/values/duration.ts';
import { lowerAssert, lowerTest } from './tests.ts';
import { LowerError, lowerPath, lowerTransforms } from './transforms.ts';
import { lowerInput, lowerValue, refsOf } from './values.ts';

export interface LowerCtx {
  lineOf(path: Array<string | number>): number;
  defaults: Record<string, unknown>;
  supported: Set<string>;
  features: Record<string, boolean>;
}

type Obj = Record<string, unknown>;
type Path = Array<string | number>;

export function lowerAction(a: Obj, at: Path, index: number, cx: LowerCtx): ActionIR {
  const name = String(a.name ?? a.action ?? `action_${index + 1}`);
  const kind = actionKind(a);
  if (!cx.supported.has(kind)) {
    throw new LowerError(`action kind "${kind}" is not available in this build`, at, `supported kinds: ${[...cx.supported].join(', ')}`);
  }
  const ir: ActionIR = { name, line: cx.lineOf(at), kind, hide: hideFlags(a) };
  const config = kindConfig(kind, a, cx);
  if (config) ir.config = config;
  const inputs = [a.input, ...(Array.isArray(a.input_fallbacks) ? a.input_fallbacks : [])].filter((x) => x !== undefined);
  if (inputs.length) ir.input = inputs.map(lowerInput);
  if (Array.isArray(a.conditional_input)) {
    ir.conditionalInput = a.conditional_input.map((c) =>
      typeof c === 'string' ? { input: lowerInput(c), tests: [] } : { input: lowerInput((c as Obj).input), tests: ((c as Obj).tests as Obj[] ?? []).map(lowerTest) },
    );
  }
  for (const [field, key] of [['run_when_succeeded', 'succeeded'], ['run_when_failed', 'failed'], ['depends_on', 'depends']] as const) {
    if (a[field] !== undefined) ir[key] = cond(a[field]);
  }
  const onAssertion = lowerAssert(a.run_on_assertion);
  if (onAssertion) ir.onAssertion = onAssertion;
  const timeout = optionalDurationMs(a.timeout);
  if (timeout !== undefined) ir.timeoutMs = timeout;
  if (a.retry) ir.retry = retry(a.retry as Obj);
  const asserted = lowerAssert(a.assert);
  if (asserted) ir.assert = asserted;
  const post = lowerTransforms(a.post_transforms, [...at, 'post_transforms'], cx);
  if (post.length) ir.post = post;
  if (a.json_output !== undefined) ir.jsonOutput = jsonOutput(a.json_output, at);
  if (typeof a.output === 'string') ir.output = a.output;
  if (a.replayable === false) ir.notReplayable = true;
  for (const [field, key] of [['response_on_success', 'responseOnSuccess'], ['response_on_error', 'responseOnError']] as const) {
    const r = a[field] as Obj | undefined;
    if (r) ir[key] = { ...(typeof r.http_code === 'number' ? { httpCode: r.http_code } : {}), ...(r.headers ? { headers: lowerValue(r.headers) } : {}), ...(r.body !== undefined ? { body: lowerValue(r.body) } : {}) };
  }
  if (kind === 'lookup') {
    ir.lookup = {
      over: lowerInput(a.lookup),
      concurrency: Math.max(1, Number(a.lookup_concurrency ?? 10)),
      partition: a.lookup_partition === true,
      ...(a.item_timeout !== undefined ? { itemTimeoutMs: optionalDurationMs(a.item_timeout)! } : {}),
    };
    const inherit = [
      ...Object.entries((a.lookup_inherit as Record<string, string>) ?? {}).map(([k, p]) => ({ k: 'arr', items: [{ k: 'lit', v: k }, lowerPath(String(p))] }) as Node),
      ...Object.entries((a.lookup_inherit_jq as Record<string, string>) ?? {}).map(([k, src]) => ({ k: 'arr', items: [{ k: 'lit', v: k }, { k: 'jq', src: String(src) }] }) as Node),
    ];
    if (inherit.length) ir.lookup.inherit = { k: 'arr', items: inherit };
    const nested = Array.isArray(a.actions) ? (a.actions as Obj[]) : [];
    ir.actions = nested.map((n, i) => lowerAction(n, [...at, 'actions', i], i, cx));
  }
  const hint = kind === 'http' ? assertStatusHint(a, name, [...at, a.http ? 'http' : 'url'], cx) : undefined;
  if (hint) ir.assertStatusHint = hint;
  const keys = stateKeysOf(ir);
  if (keys.length) ir.stateKeys = keys;
  const reads = actionsRead(ir);
  if (reads.length) ir.reads = reads;
  return ir;
}

function kindConfig(kind: string, a: Obj, cx: LowerCtx): Node | undefined {
  if (kind === 'http') {
    const http: Obj = { ...((a.http as Obj) ?? {}) };
    if (http.url === undefined && a.url !== undefined) http.url = a.url;
    const dflt = cx.defaults.expect_status;
    if (http.expect_status === undefined && dflt !== undefined) http.expect_status = dflt;
    return lowerValue(http);
  }
  if (kind === 'input' || kind === 'lookup') return undefined;
  return lowerValue(a[kind === 'database' ? 'query' : kind]);
}

function cond(v: unknown): CondIR {
  if (Array.isArray(v)) return { actions: v.map(String) };
  if (typeof v === 'string') return { actions: [v] };
  const o = v as Obj;
  return {
    actions: ((o.actions as unknown[]) ?? []).map(String),
    ...(typeof o.at_least === 'number' ? { atLeast: o.at_least } : {}),
    ...(typeof o.http_code_on_error === 'number' ? { httpCodeOnError: o.http_code_on_error } : {}),
  };
}

function retry(r: Obj): RetryIR {
  const out: RetryIR = {
    attempts: Math.max(1, Number(r.attempts ?? 1)),
    delay: Number(r.delay ?? 0),
    exponential: r.exponential_backoff === true,
    jitter: r.jitter === 'none' ? 'none' : 'full',
    respectRetryAfter: r.respect_retry_after !== false,
  };
  if (r.max_delay !== undefined) out.maxDelay = Number(r.max_delay);
  if (Array.isArray(r.on)) out.on = r.on as Array<number | string>;
  if (Array.isArray(r.except)) out.except = r.except as Array<number | string>;
  return out;
}

function jsonOutput(v: unknown, at: Path): Array<[string, string]> {
  let o = v;
  if (typeof v === 'string') {
    try { o = JSON.parse(v); } catch { throw new LowerError('json_output must be a mapping of name to jq path (or that mapping as a JSON string)', [...at, 'json_output']); }
  }
  if (!o || typeof o !== 'object' || Array.isArray(o)) throw new LowerError('json_output must be a mapping of name to jq path', [...at, 'json_output']);
  return Object.entries(o).map(([k, jq]) => [k, String(jq)]);
}

function hideFlags(a: Obj): ActionIR['hide'] {
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
function assertStatusHint(a: Obj, name: string, at: Path, cx: LowerCtx): ActionIR['assertStatusHint'] {
  const tests = ((a.assert as Obj | undefined)?.tests as Obj[] | undefined) ?? [];
  const statuses = new Set<number>();
  for (const t of tests) {
    const v = typeof t.value === 'string' ? lowerInput(t.value) : undefined;
    if (!v || v.k !== 'ref' || v.ref.root !== 'action' || v.ref.name !== name || v.ref.part !== 'status') continue;
    for (const x of [t.is_equal_to, ...(Array.isArray(t.is_one_of) ? t.is_one_of : [])]) if (typeof x === 'number') statuses.add(x);
  }
  const expect = ((a.http as Obj | undefined)?.expect_status ?? cx.defaults.expect_status) as unknown;
  const accepted = (s: number) => statusMatches(expect as never, s);
  const refused = [...statuses].filter((s) => !accepted(s)).sort((x, y) => x - y);
  return refused.length ? { statuses: refused, line: cx.lineOf(at) } : undefined;
}
