// `state` action: one durable key/value operation (get, set, advance, increment or delete) in the
// config's namespace. Data: get → the value (null when absent), set → the value,
// advance → {advanced, value}, increment → the new number, delete → {deleted}.
import type { Store } from '../store-types.ts';
import { boundedDurationMs } from '../values/bounds.ts';
import { configNamespace } from '../values/namespace.ts';
import type { ActionKind, ActionOutcome } from './types.ts';

const OPS = ['get', 'set', 'advance', 'increment', 'delete'] as const;
type Op = { key?: unknown; value?: unknown; by?: unknown; ttl?: unknown };

const fail = (error: string): ActionOutcome => ({ ok: false, error, failure: { kind: 'other' } });
const kindOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

export const state: ActionKind = async (config, ctx) => {
  const store = ctx.services.store as Store | undefined;
  if (!store) return fail('state: no store is configured');
  const c = (config ?? {}) as Record<string, unknown>;
  const ops = OPS.filter((k) => c[k] !== undefined);
  if (ops.length !== 1) return fail(`state: give exactly one of ${OPS.join(', ')}${ops.length ? ` (got ${ops.join(', ')})` : ''}`);
  const name = ops[0]!;
  const op = (c[name] ?? {}) as Op;
  // Keys are text; a marker that resolved to a number (an id) is used as its text.
  if (op.key === undefined || op.key === null || op.key === '' || typeof op.key === 'object') return fail(`state ${name}: "key" must be non-empty text`);
  const key = String(op.key);
  const ns = configNamespace(c.namespace, ctx.run.config, 'state');
  const ttl = boundedDurationMs(op.ttl, 'ttl');
  const now = ctx.services.clock.now();
  switch (name) {
    case 'get':
      return { ok: true, data: (await store.stateGet(ns, [key], now))[key] ?? null };
    case 'set': {
      const value = op.value ?? null;
      await store.stateSet(ns, key, value, ttl, now);
      return { ok: true, data: value };
    }
    case 'advance': {
      const v = op.value ?? null;
      if (v !== null && typeof v !== 'number' && typeof v !== 'string') return fail(`state advance: "value" must be a number or text, not ${kindOf(v)}`);
      const r = await store.stateAdvance(ns, key, v, ttl, now);
      // Not advanced because the stored value is of another type: a cursor that could never move again.
      if (!r.advanced && v !== null && r.value !== null && typeof r.value !== typeof v) {
        return fail(`state advance: "${key}" holds ${kindOf(r.value)} ${JSON.stringify(r.value)}, which cannot be compared with ${kindOf(v)} ${JSON.stringify(v)}`);
      }
      return { ok: true, data: { advanced: r.advanced, value: r.value } };
    }
    case 'increment': {
      const by = op.by === undefined || op.by === null ? 1 : typeof op.by === 'string' && op.by.trim() !== '' ? Number(op.by) : op.by;
      if (typeof by !== 'number' || !Number.isFinite(by)) return fail(`state increment: "by" must be a number, not ${JSON.stringify(op.by)}`);
      return { ok: true, data: await store.stateIncrement(ns, key, by, ttl, now) };
    }
    case 'delete':
      return { ok: true, data: { deleted: await store.stateDelete(ns, key) } };
  }
};
