// A run taken over again and again at the same action (its node dies running it, or the action
// kills its node) would be claimed after every lease without end: the takeovers at one action are
// counted in the run state and bounded (SERVICE__MAX_TAKEOVERS). Progress (a later action) starts the
// count again, so a long run surviving many unrelated node deaths is not failed for them.
import type { RunState } from '../run-state.ts';

export const DEFAULT_MAX_TAKEOVERS = 5;
const MAX_MAX_TAKEOVERS = 1000;

/** SERVICE__MAX_TAKEOVERS (5, 0 to 1000); a malformed value is an error naming it. */
export function takeoverLimit(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.SERVICE__MAX_TAKEOVERS;
  if (raw === undefined || raw === '') return DEFAULT_MAX_TAKEOVERS;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > MAX_MAX_TAKEOVERS) {
    throw new Error(`SERVICE__MAX_TAKEOVERS=${raw} must be a whole number between 0 and ${MAX_MAX_TAKEOVERS}`);
  }
  return n;
}

/** Counts this takeover in the run state; returns the number of takeovers at the run's current action. */
export function countTakeover(run: RunState): number {
  const count = run.takeovers?.cursor === run.cursor ? run.takeovers.count + 1 : 1;
  run.takeovers = { cursor: run.cursor, count };
  return count;
}
