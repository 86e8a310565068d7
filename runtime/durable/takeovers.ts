// A run taken over again and again at the same action (its node dies running it, or the action
// kills its node) would be claimed after every lease without end: the takeovers at one action are
// counted in the run state and bounded (SERVICE__MAX_TAKEOVERS). Progress (a later action) starts the
// count again, so a long run surviving many unrelated node deaths is not failed for them.
import type { RunState } from '../run-state.ts';

/** SERVICE__MAX_TAKEOVERS unset (read with the other settings: runtime/server/ops-settings.ts). */
export const DEFAULT_MAX_TAKEOVERS = 5;

/** Counts this takeover in the run state; returns the number of takeovers at the run's current action. */
export function countTakeover(run: RunState): number {
  const count = run.takeovers?.cursor === run.cursor ? run.takeovers.count + 1 : 1;
  run.takeovers = { cursor: run.cursor, count };
  return count;
}
