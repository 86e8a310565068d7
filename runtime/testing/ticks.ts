// A scheduled interface's ticks in a test case (`schedule:` of a case, docs/test-cases.md): the times
// its cron fires after the case's start, computed as the scheduler computes them (./../schedule/),
// so a case runs the ticks a server would, at the instants it would, with no waiting.
import { cronOf, scheduleSettings, type ScheduleSettings } from '../schedule/index.ts';
import type { CaseSchedule } from './case-types.ts';

/** Where a case's virtual clock starts unless its `schedule.from` says: a fixed instant, so a case
 *  that reads the time (a stored run's start, a state ttl, a JWT's iat) gives the same answer on
 *  every run. */
export const CASE_EPOCH = Date.parse('2026-01-01T00:00:00Z');

/** Ticks one case runs at most (the file's schema says so too). */
export const MAX_TICKS = 1000;

/** How many ticks a case's `schedule.ticks` runs: the count, or one per listed tick. */
export const tickCount = (s: CaseSchedule): number => (Array.isArray(s.ticks) ? s.ticks.length : s.ticks);

/** The schedule's settings and its first `n` tick times (epoch ms) strictly after `from`, as the
 *  scheduler arms them at start (a tick at `from` itself is not one of them). */
export function ticksAfter(key: string, i: { schedule?: unknown }, from: number, n: number): { s: ScheduleSettings; times: number[] } {
  const s = scheduleSettings(i.schedule);
  if (!s) throw new Error(`interface ${key} has no schedule`);
  const cron = cronOf(key, s);
  const times: number[] = [];
  for (let at = new Date(from); times.length < Math.min(n, MAX_TICKS);) {
    const next = cron.nextRun(at);
    if (!next) break;
    times.push(next.getTime());
    at = next;
  }
  return { s, times };
}

/** The `from` that makes a case's first tick the one a scheduled run started at (`pipewright test
 *  --from-run`): the tick before the latest tick at or before `startedAt` (a retry starts after its
 *  tick's backoff; a tick's run a few ms after the tick). Undefined when the cron has none. */
export function fromOfTickRun(key: string, i: { schedule?: unknown }, startedAt: number): string | undefined {
  const s = scheduleSettings(i.schedule);
  if (!s) return undefined;
  const [tick, before] = cronOf(key, s).previousRuns(2, new Date(startedAt + 1));
  if (!tick) return undefined;
  // No tick before it (a cron's first ever): a moment before the tick does as well.
  return (before ?? new Date(tick.getTime() - 1000)).toISOString().replace('.000Z', 'Z');
}
