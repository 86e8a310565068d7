// `only_new` action: keeps the records of its input whose id was not seen before under `key`, and
// records their ids, in one store write per execution (one page). Data: the new records, in order.
import { jqAllAsync } from '../jq/engine.ts';
import type { Store } from '../store-types.ts';
import { boundedDurationMs } from '../values/bounds.ts';
import { configNamespace } from '../values/namespace.ts';
import type { ActionKind, ActionOutcome } from './types.ts';

/** Ids kept per set when there is no ttl (spec: Limits, only_new retention). */
export const ONLY_NEW_CAP = 5000;

const fail = (error: string): ActionOutcome => ({ ok: false, error, failure: { kind: 'other' } });

/** Ids compare as text: strings as they are, anything else as compact JSON (numbers: String(n)). */
const idText = (v: unknown): string | null => (v === null || v === undefined ? null : typeof v === 'string' ? v : typeof v === 'number' ? String(v) : JSON.stringify(v));

export const onlyNew: ActionKind = async (config, ctx) => {
  const store = ctx.services.store as Store | undefined;
  if (!store) return fail('only_new: no store is configured');
  const c = (config ?? {}) as Record<string, unknown>;
  if (typeof c.key !== 'string' || !c.key) return fail('only_new: "key" (the name of the dedupe set) is required');
  const expr = c.id === undefined || c.id === null ? '.id' : c.id;
  if (typeof expr !== 'string' || !expr.trim()) return fail('only_new: "id" must be a jq expression');
  const ns = configNamespace(c.namespace, ctx.run.config, 'only_new');
  const ttl = boundedDurationMs(c.ttl, 'ttl');
  const input = ctx.input;
  const records: unknown[] = input === undefined || input === null ? [] : Array.isArray(input) ? input : [input];

  // One jq call for the page (a call costs ~2 ms); the newlines keep a trailing `# comment` inside.
  // `[expr][0]` is the first output, null when there is none.
  // A program that may run a regex runs off the main thread (runtime/jq/pool.ts).
  const ids = records.length ? (((await jqAllAsync(`[.[] | [\n${expr}\n][0]]`, records))[0] as unknown[]).map(idText)) : [];
  const distinct = [...new Set(ids.filter((x): x is string => x !== null))];
  const fresh = distinct.length ? await store.markSeen(ns, c.key, distinct, ttl, ONLY_NEW_CAP, ctx.services.clock.now()) : new Set<string>();

  // A repeated id within the page passes once (its first record); records without an id always pass.
  const out: unknown[] = [];
  records.forEach((r, i) => {
    const id = ids[i]!;
    if (id === null) out.push(r);
    else if (fresh.delete(id)) out.push(r);
  });
  if (!out.length && c.skip_when_empty !== false) return { ok: true, data: [], skip: true };
  return { ok: true, data: out };
};
