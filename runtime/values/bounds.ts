// Upper bounds of durations in configs, shared by `check` (compiler/load/lint-bounds.ts) and the
// runtime (a marker can still produce any value). In-process waits must stay below Node's timer
// limit: past 2^31-1 ms setTimeout fires at once, so `timeout: 30d` used to fail every call in ms.
import { optionalDurationMs } from './duration.ts';

export const MAX_TIMER_MS = 2 ** 31 - 1;
const DAY = 86_400_000;

/** Field → longest accepted duration in ms. Waits a run parks for (delay, callbacks) are longer. */
export const DURATION_LIMITS = {
  timeout: DAY,
  item_timeout: DAY,
  connect_timeout: DAY,
  delay: 30 * DAY,
  max_delay: 30 * DAY,
  wait_timeout: 30 * DAY,
  ttl: 366 * DAY,
  exp: 366 * DAY,
} as const;
export type BoundedField = keyof typeof DURATION_LIMITS;

export const showLimit = (ms: number): string => (ms % DAY === 0 ? `${ms / DAY}d` : `${ms} ms`);

/** Why a duration is refused, or undefined (malformed text is the parser's message). */
export function durationProblem(v: unknown, field: BoundedField): string | undefined {
  let ms: number | undefined;
  try { ms = optionalDurationMs(v); } catch (e) { return (e as Error).message; }
  const max = DURATION_LIMITS[field];
  return ms !== undefined && ms > max ? `${field === 'wait_timeout' ? 'timeout' : field} ${JSON.stringify(v)} is longer than the limit of ${showLimit(max)}` : undefined;
}

/** A duration within its field's bound, or an Error saying which bound. */
export function boundedDurationMs(v: unknown, field: BoundedField): number | undefined {
  const problem = durationProblem(v, field);
  if (problem) throw new Error(problem);
  return optionalDurationMs(v);
}

/** For in-process timers whatever the caller passed (never fires early by overflow). */
export const timerMs = (ms: number): number => Math.min(Math.max(ms, 0), MAX_TIMER_MS);
