// A Schedule block (raw JSON in the plan) checked and given its defaults, and the retry backoff.
// Checked at start, not at each tick: a bad cron or zone should stop the server, not fail quietly later.
import { Cron } from 'croner';

export interface ScheduleSettings {
  cron: string;
  enabled: boolean;
  maxAttempts: number;
  backoffSeconds: number;
  multiplier: number;
  maxBackoffSeconds: number;
  timezone: string;
}

const num = (v: unknown, d: number) => (typeof v === 'number' && Number.isFinite(v) ? v : d);

export function scheduleSettings(raw: unknown): ScheduleSettings | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as Record<string, unknown>;
  return {
    cron: typeof r.cron === 'string' ? r.cron.trim() : '',
    enabled: r.enabled === true,
    maxAttempts: Math.max(1, Math.floor(num(r.max_attempts, 1))),
    backoffSeconds: Math.max(0, num(r.retry_backoff_seconds, 60)),
    multiplier: Math.max(1, num(r.retry_backoff_multiplier, 2)),
    maxBackoffSeconds: Math.max(0, num(r.max_backoff_seconds, 3600)),
    timezone: typeof r.timezone === 'string' && r.timezone ? r.timezone : 'UTC',
  };
}

/** Wait after failed attempt `n` (1-based): base × multiplier^(n−1), capped. */
export function backoffMs(s: ScheduleSettings, n: number): number {
  return Math.min(s.backoffSeconds * s.multiplier ** (n - 1), s.maxBackoffSeconds) * 1000;
}

/** A croner pattern object used only to compute tick times (we arm our own timers, so a tick's
 *  time is the scheduled instant on every node, not whenever a timer happened to fire). */
export function cronOf(where: string, s: ScheduleSettings, seconds = false): Cron {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: s.timezone });
  } catch {
    throw new Error(`schedule of ${where}: unknown timezone "${s.timezone}" (expected an IANA zone such as Europe/Paris)`);
  }
  const fields = s.cron.split(/\s+/).filter(Boolean).length;
  if (fields !== 5 && !(seconds && fields === 6)) {
    throw new Error(`schedule of ${where}: cron "${s.cron}" has ${fields} fields; expected 5 (minute hour day month weekday)`);
  }
  try {
    return new Cron(s.cron, { timezone: s.timezone, mode: fields === 6 ? '6-part' : '5-part' });
  } catch (e) {
    throw new Error(`schedule of ${where}: invalid cron "${s.cron}": ${(e as Error).message.replace(/^CronPattern: /, '')}`);
  }
}
