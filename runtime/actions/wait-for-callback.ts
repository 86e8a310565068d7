// `wait_for_callback`: parks the run under an unguessable token until POST /_ap/resume/<token>
// (the posted body becomes this action's output) or until `timeout` passes (the action fails).
// Needs a durable store: without one the wait is refused.
import { durationMs } from '../values/duration.ts';
import { boundedDurationMs } from '../values/bounds.ts';
import type { ActionKind } from './types.ts';

export const waitForCallback: ActionKind = async (config, ctx) => {
  const c = (config ?? {}) as { token?: unknown; timeout?: unknown };
  if (!ctx.services.store?.durable) {
    return { ok: false, failure: { kind: 'other' }, error: 'wait_for_callback needs a durable store (set SERVICE__DATABASE_URL): refused' };
  }
  const token = typeof c.token === 'string' ? c.token : '';
  // Check time refuses guessable templates (compiler/load/lint-tokens.ts); this catches a value that
  // came out short or repetitive anyway.
  if (token.length < 16 || new Set(token).size < 8) return { ok: false, failure: { kind: 'other' }, error: 'wait_for_callback.token must be an unguessable secret of at least 16 characters (mint one with a|uuid| in an earlier action)' };
  let ms: number;
  try { ms = durationMs(c.timeout); boundedDurationMs(ms, 'wait_timeout'); } catch (e) { return { ok: false, error: `wait_for_callback.timeout: ${(e as Error).message}`, failure: { kind: 'other' } }; }
  return { ok: true, suspend: { token, at: ctx.services.clock.now() + ms, reason: 'callback' } };
};
