// Every jq program runs within a time and a size bound (docs/decisions.md, Security, "Bounded work").
// Compiled code counts steps: each loop iteration over a stream (`.[]`, `range`, recursion) ticks, and the
// clock is read every TICK_EVERY steps against the deadline set when the program starts; arrays it
// builds grow through `push`, which refuses past the item bound. The engine (wasm) cannot be stopped from
// this thread, so it runs in a worker with the same deadline (runtime/jq/engine.ts). Exceeding a bound
// fails the whole call with a JqBound (a 422 to the client), which jq's own `try` cannot catch.
import { Refused } from '../refused.ts';
import { numberSetting } from '../values/number-setting.ts';

export const DEFAULT_JQ_TIMEOUT_MS = 1000;
export const DEFAULT_JQ_MAX_ITEMS = 1_000_000;
const TIMEOUT_RANGE = { min: 10, max: 60_000 };
// V8 dies (not throws) past ~134M array elements: the bound must stay far below.
const ITEMS_RANGE = { min: 1, max: 10_000_000 };
/** Steps between two reads of the clock (a power of two: the check is a mask). */
const TICK_EVERY = 1024;

/** A program that exceeded a bound: the request (or the config) asked for too much work. */
export class JqBound extends Refused {
  override name = 'JqBound';
  constructor(message: string) { super(message, 422); }
}

export interface JqBounds { timeoutMs: number; maxItems: number }

/** SERVICE__JQ_TIMEOUT_MS and SERVICE__JQ_MAX_ITEMS; a malformed value is an error naming it. */
export function jqBoundsFrom(env: NodeJS.ProcessEnv): JqBounds {
  return {
    timeoutMs: numberSetting(env, 'SERVICE__JQ_TIMEOUT_MS', DEFAULT_JQ_TIMEOUT_MS, { ...TIMEOUT_RANGE, whole: true }),
    maxItems: numberSetting(env, 'SERVICE__JQ_MAX_ITEMS', DEFAULT_JQ_MAX_ITEMS, { ...ITEMS_RANGE, whole: true }),
  };
}

let settings: JqBounds | undefined;

/** Reads (and validates) the settings; the server calls it at start, tests after changing them. */
export function configureJqBounds(env: NodeJS.ProcessEnv = process.env): JqBounds {
  return (settings = jqBoundsFrom(env));
}

export const jqBounds = (): JqBounds => (settings ??= jqBoundsFrom(process.env));

// The running action's `timeout`, while its synchronous jq runs (runtime/exec/action.ts).
let actionMs: number | undefined;

/** Runs f with the jq time bound lowered to ms (an action's timeout) where that is lower. */
export function withActionBound<T>(ms: number | undefined, f: () => T): T {
  if (ms === undefined) return f();
  const prev = actionMs;
  actionMs = ms;
  try { return f(); } finally { actionMs = prev; }
}

/** The time bound of a program starting now, and the setting that sets it. */
export function timeBound(): { ms: number; by: string } {
  const { timeoutMs } = jqBounds();
  return actionMs !== undefined && actionMs < timeoutMs ? { ms: Math.max(1, Math.ceil(actionMs)), by: "the action's timeout" } : { ms: timeoutMs, by: 'SERVICE__JQ_TIMEOUT_MS' };
}

export const overTime = (t: { ms: number; by: string }): JqBound =>
  new JqBound(`jq: the program did not finish within ${t.ms} ms (${t.by})`);

export const tooMany = (max: number): JqBound =>
  new JqBound(`jq: the program built an array of more than ${max} items (SERVICE__JQ_MAX_ITEMS)`);

// The budget of the compiled program running now (compiled programs never interleave: they are synchronous).
let steps = 0;
let deadline = Infinity;
let bound = { ms: 0, by: '' };
let maxItems = DEFAULT_JQ_MAX_ITEMS;

/** At the start of every compiled program. */
export function begin(): void {
  bound = timeBound();
  maxItems = jqBounds().maxItems;
  steps = 0;
  deadline = performance.now() + bound.ms;
}

/** One step of a loop or a recursion; every TICK_EVERY steps, the deadline. */
export function tick(): void {
  if ((++steps & (TICK_EVERY - 1)) === 0 && performance.now() > deadline) throw overTime(bound);
}

/** Array growth in compiled code: one element, within the item bound. */
export function push(a: unknown[], v: unknown): void {
  if (a.length >= maxItems) throw tooMany(maxItems);
  a.push(v);
}

/** An array a helper is about to build from others (`+`), within the item bound. */
export function sized(n: number): void {
  if (n > maxItems) throw tooMany(maxItems);
}
