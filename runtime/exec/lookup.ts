// Lookup fan-out: the nested actions run once per item (the item is `a|body|`), at most
// `concurrency` at a time; results keep the input order.
import { managedMode } from '../values/managed-mode.ts';
import type { ActionOutcome } from '../actions/types.ts';
import type { ActionPlan, DataFn } from '../plan.ts';
import { copyRecord, setOwn, withOwn } from '../values/build.ts';
import { timerMs } from '../values/bounds.ts';
import type { RunState, SeqState, StepRecord } from '../run-state.ts';
import type { Scope } from '../scope.ts';
import type { Services } from '../services.ts';
import { newSeq, runSequence, type Paused } from './sequence.ts';
import { Records } from '../values/records.ts';
import { Refused } from '../refused.ts';

/** SERVICE__LOOKUP_MAX_ITEMS unset. */
export const DEFAULT_LOOKUP_MAX_ITEMS = 1000;

interface ItemResult { ok: boolean; data: unknown; status?: number; error?: string }

export async function runLookup(a: ActionPlan, s: Scope, run: RunState, services: Services, signal: { readonly aborted: boolean } | undefined): Promise<ActionOutcome> {
  const lk = a.lookup!;
  const over = lk.over(s);
  // Stryker disable next-line ConditionalExpression: `lookup` is a marker, which reads a missing value as null, never undefined
  const items = Array.isArray(over) ? over : over === null || over === undefined ? [] : [over];
  // Checked before any item runs: one request must not make an unbounded number of upstream calls.
  const setting = services.lookupMaxItems ?? DEFAULT_LOOKUP_MAX_ITEMS;
  const own = lk.maxItems !== undefined && lk.maxItems < setting;
  const max = own ? lk.maxItems! : setting;
  if (items.length > max) {
    const why = `lookup: ${items.length} items, more than the ${max} a lookup may run (${own ? 'lookup_max_items' : 'SERVICE__LOOKUP_MAX_ITEMS'})`;
    // Items the request chose are the client's to fix; items an upstream or the config gave are not.
    if (lk.fromRequest) throw new Refused(why, 400);
    return { ok: false, error: why };
  }
  const nested = a.actions ?? [];
  // Stryker disable next-line ArrayDeclaration: every index is assigned before results are read; the length only presizes
  const results: ItemResult[] = new Array(items.length);
  const inherit = (lk.inherit?.(s) ?? []) as Array<[string, DataFn]>;
  const httpOut = httpOutputs(nested);
  const timeoutMs = lk.itemTimeoutMs;
  let next = 0;
  const worker = async () => {
    while (next < items.length && !signal?.aborted) {
      const i = next++;
      const scope = itemScope(s, items[i]);
      const seq = newSeq();
      // Without item_timeout the sequence is awaited as it is (no promise chained on it per item).
      const r = timeoutMs === undefined
        ? itemResult(nested, httpOut, scope, seq, await runSequence(nested, scope, seq, run, services))
        : await withItemTimeout(runSequence(nested, scope, seq, run, services).then((paused) => itemResult(nested, httpOut, scope, seq, paused)), timeoutMs);
      results[i] = inherit.length && r.ok ? withOwn(r, 'data', await withInherited(r.data, items[i], inherit, s)) : r;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrencyOf(lk.concurrency), items.length) }, worker));
  if (signal?.aborted) return { ok: false, error: 'lookup timed out', failure: { kind: 'transport', cls: 'timeout' } };
  if (lk.partition) {
    const succeeded: unknown[] = [];
    const failed: unknown[] = [];
    results.forEach((r, i) => {
      if (r.ok) { succeeded.push(r.data); return; }
      // Stryker disable next-line ConditionalExpression: an http_code or error of undefined leaves no key in the JSON data
      failed.push({ item: items[i], ...(r.status !== undefined ? { http_code: r.status } : {}), ...(r.error ? { error: r.error } : {}), data: r.data });
    });
    return { ok: true, data: { succeeded, failed } };
  }
  return { ok: true, data: results.map((r) => r.data) };
}

/** An item's scope: the item is the body; its steps start as the lookup's and stay its own. Written
 *  out field by field: a spread of the scope cost ~4x as much, once per item. */
function itemScope(s: Scope, item: unknown): Scope {
  // Copied key by key into fast-mode records (values/records.ts): no `__proto__` setter in their
  // chain, so even that name is set as data.
  const steps: Record<string, StepRecord> = new Records();
  for (const k in s.steps) steps[k] = s.steps[k]!;
  return { body: item, rawBody: s.rawBody, params: s.params, headers: s.headers, steps, state: s.state, env: s.env };
}


/** An item's result: the data of the last action that ran with `output: http`, else of the last that
 *  ran; failed when an action's failure went unhandled or the status is 400 or more. Plain loops:
 *  this runs once per item. */
function itemResult(nested: ActionPlan[], httpOut: ReadonlySet<string>, scope: Scope, seq: SeqState, paused: Paused | undefined): ItemResult {
  if (paused) return { ok: false, data: null, error: `${nested[paused.index]!.name}: a lookup item cannot suspend the run (${paused.suspend.reason})` };
  let outName: string | undefined, lastRan: string | undefined;
  for (let k = seq.order.length - 1; k >= 0; k--) {
    const n = seq.order[k]!;
    if (scope.steps[n]!.outcome === 'skipped') continue;
    lastRan ??= n;
    if (httpOut.has(n)) { outName = n; break; }
  }
  outName ??= lastRan;
  const rec = outName ? scope.steps[outName]! : undefined;
  const failedName = seq.unhandled[seq.unhandled.length - 1];
  const failedRec = failedName ? scope.steps[failedName] : undefined;
  const status = (failedRec ?? rec)?.status;
  const r: ItemResult = { ok: seq.unhandled.length === 0 && (status === undefined || status < 400), data: rec?.data ?? null };
  // Stryker disable next-line ConditionalExpression: equivalent, an absent and an undefined status read the same (`r.status !== undefined` above)
  if (status !== undefined) r.status = status;
  if (failedRec?.error) r.error = failedRec.error;
  return r;
}

async function withItemTimeout(work: Promise<ItemResult>, timeoutMs: number): Promise<ItemResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ItemResult>((resolve) => { timer = setTimeout(() => resolve({ ok: false, data: null, error: `item timed out after ${timeoutMs} ms` }), timerMs(timeoutMs)); });
  // Stryker disable next-line BlockStatement: a timer left running resolves a race already decided; it only keeps the process up to item_timeout longer
  try { return await Promise.race([work, timeout]); } finally { clearTimeout(timer); }
}

/** The nested actions with `output: http`, once per lookup (a plan's lists never change). */
const httpOutputsOf = new WeakMap<ActionPlan[], ReadonlySet<string>>();
function httpOutputs(nested: ActionPlan[]): ReadonlySet<string> {
  const cached = httpOutputsOf.get(nested);
  // Stryker disable next-line ConditionalExpression: equivalent, the cache only saves time: a set made afresh holds the same names
  if (cached) return cached;
  const set = new Set(nested.filter((x) => x.output === 'http').map((x) => x.name));
  httpOutputsOf.set(nested, set);
  return set;
}

/** lookup_inherit / lookup_inherit_jq: fields taken from the item into its (object) result (a jq regex awaited). */
async function withInherited(data: unknown, item: unknown, inherit: Array<[string, DataFn]>, s: Scope): Promise<unknown> {
  const out: Record<string, unknown> = data !== null && typeof data === 'object' && !Array.isArray(data) ? copyRecord(data as Record<string, unknown>) : { value: data };
  for (const [name, fn] of inherit) setOwn(out, name, (await fn(item, s)) ?? null);
  return out;
}

/** lookup_concurrency, capped at 50 in managed run modes (spec: Limits). */
export function concurrencyOf(configured: number, env: NodeJS.ProcessEnv = process.env): number {
  return managedMode(env.SERVICE__MANAGED_MODE) ? Math.min(configured, 50) : configured;
}
