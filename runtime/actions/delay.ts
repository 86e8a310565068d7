// `delay`: up to SERVICE__MAX_DELAY_SECS the run sleeps in process; longer, it is suspended into
// the durable store and resumed by the scheduler when due; with no durable store a long delay is
// refused, never shortened (spec: States and transitions).
import { durationMs } from '../values/duration.ts';
import { boundedDurationMs } from '../values/bounds.ts';
import { maxDelayOf } from '../services.ts';
import type { ActionKind } from './types.ts';

export const delay: ActionKind = async (config, ctx) => {
  let ms: number;
  // A literal is checked at `check`; a value that fails here came through a marker (the request, an
  // upstream): the client's to fix, 400.
  try { ms = durationMs(config); boundedDurationMs(ms, 'delay'); } catch (e) { return { ok: false, error: `delay: ${(e as Error).message}`, failure: { kind: 'refused', status: 400 } }; }
  const max = maxDelayOf(ctx.services);
  if (ms <= max) {
    await ctx.services.clock.sleep(ms, ctx.signal);
    return { ok: true, data: null };
  }
  if (!ctx.services.store?.durable) {
    return { ok: false, failure: { kind: 'other' }, error: `delay of ${ms} ms exceeds SERVICE__MAX_DELAY_SECS (${max / 1000} s) and no durable store is configured (set SERVICE__DATABASE_URL): refused, not shortened` };
  }
  return { ok: true, suspend: { at: ctx.services.clock.now() + ms, reason: 'delay' } };
};
