// `database` action: one SQL statement (or a Postgres batch with multi: true) on a declared database
// or an action's conn_string; positional params are always bound, never spliced. Data: the rows.
import type { ActionKind, ActionOutcome } from '../types.ts';
import { driverFor } from './pools.ts';
import { dbSettings } from './settings.ts';
import { DbError } from './types.ts';
import { Refused } from '../../refused.ts';

/** Bound: a statement takes at most this many parameters (Postgres's own limit is 65535). */
const MAX_PARAMS = 10_000;

export const database: ActionKind = async (config, ctx) => {
  const c = (config ?? {}) as Record<string, unknown>;
  try {
    if (typeof c.query !== 'string' || !c.query.trim()) return fail('database: "query" must be non-empty SQL text');
    const params = c.params === undefined || c.params === null ? [] : c.params;
    if (!Array.isArray(params)) return fail('database: "params" must be a list (bound in order as $1, $2, ... or ?)');
    if (params.length > MAX_PARAMS) return fail(`database: at most ${MAX_PARAMS} params`);
    const multi = c.multi === true;
    if (multi && params.length) return fail('database: multi: true cannot be used with params');
    const rows = await driverFor(dbSettings(c.db)).query(c.query, params, { multi, signal: ctx.cancel ?? ctx.signal });
    return { ok: true, data: rows };
  } catch (e) {
    return failed(e);
  }
};

const fail = (error: string): ActionOutcome => ({ ok: false, error, failure: { kind: 'other' } });

/** Connect failures are transport failures (502), a statement timeout a timeout (504), the rest 500. */
export function failed(e: unknown): ActionOutcome {
  if (e instanceof Refused) return { ok: false, error: e.message, failure: { kind: 'refused', status: e.status } };
  if (!(e instanceof DbError)) return fail(e instanceof Error ? e.message : String(e));
  if (e.cls === 'query') return fail(e.message);
  return { ok: false, error: e.message, failure: { kind: 'transport', cls: e.cls } };
}
