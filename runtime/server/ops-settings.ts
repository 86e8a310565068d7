// Operational settings read at start (docs/settings.md). A malformed value is a one-line startup
// error naming the variable, never a silent default.
export interface OpsSettings {
  /** SERVICE__RUN_DEADLINE_SECS (86400): no retry attempt of a run starts after its start + this. */
  runDeadlineMs: number;
  /** SERVICE__RUN_RETENTION_HOURS (24): finished runs stay readable at GET /_ap/runs/<id> this long. */
  runRetentionMs: number;
  /** SERVICE__SHUTDOWN_GRACE_SECS (10): on SIGTERM/SIGINT, in-flight runs get this long to finish. */
  shutdownGraceMs: number;
  /** SERVICE__SHUTDOWN_DELAY_SECS (0): on SIGTERM/SIGINT, GET /_ap/ready answers 503 while requests are
   *  still taken this long, so load balancers stop sending before the listener closes. */
  shutdownDelayMs: number;
  /** SERVICE__MAX_TAKEOVERS (5): takeovers of a run at one action before it fails (runtime/durable/takeovers.ts). */
  maxTakeovers: number;
  /** SERVICE__LOOKUP_MAX_ITEMS (1000): the most items a lookup runs (runtime/exec/lookup.ts). */
  lookupMaxItems: number;
}

import { StartupError } from './startup-errors.ts';
import { numberSetting } from '../values/number-setting.ts';
import { DEFAULT_MAX_TAKEOVERS } from '../durable/takeovers.ts';
import { DEFAULT_LOOKUP_MAX_ITEMS } from '../exec/lookup.ts';

function number(env: NodeJS.ProcessEnv, name: string, dflt: number, max: number, whole = false): number {
  try { return numberSetting(env, name, dflt, { min: 0, max, whole }); } catch (e) { throw new StartupError((e as Error).message); }
}

/** A whole number of at least 1. */
function numberSetting1(env: NodeJS.ProcessEnv, name: string, dflt: number, max: number): number {
  try { return numberSetting(env, name, dflt, { min: 1, max, whole: true }); } catch (e) { throw new StartupError((e as Error).message); }
}

export function opsSettings(env: NodeJS.ProcessEnv = process.env): OpsSettings {
  return {
    runDeadlineMs: number(env, 'SERVICE__RUN_DEADLINE_SECS', 86_400, 30 * 86_400) * 1000,
    runRetentionMs: number(env, 'SERVICE__RUN_RETENTION_HOURS', 24, 24 * 365) * 3_600_000,
    shutdownGraceMs: number(env, 'SERVICE__SHUTDOWN_GRACE_SECS', 10, 3600) * 1000,
    shutdownDelayMs: number(env, 'SERVICE__SHUTDOWN_DELAY_SECS', 0, 300) * 1000,
    maxTakeovers: number(env, 'SERVICE__MAX_TAKEOVERS', DEFAULT_MAX_TAKEOVERS, 1000, true),
    lookupMaxItems: numberSetting1(env, 'SERVICE__LOOKUP_MAX_ITEMS', DEFAULT_LOOKUP_MAX_ITEMS, 1_000_000),
  };
}
