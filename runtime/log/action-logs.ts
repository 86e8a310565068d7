// What the executor logs about actions: the config's own messages (pre_log, post_log, error_log,
// success_log, retry_log; LogMessage = msg, level, json) and one line per failed action. Lines carry
// the run's id, config, interface and action. A message that cannot be built is logged as such: a
// log line never changes how a run goes.
import type { LogPhase } from '../config-ir.ts';
import type { ActionPlan } from '../plan.ts';
import type { RunState } from '../run-state.ts';
import type { Scope } from '../scope.ts';
import type { Services } from '../services.ts';
import { text } from '../values/text.ts';
import type { Logger } from './logger.ts';

const LEVELS = new Set(['trace', 'debug', 'info', 'warn', 'error', 'fatal']);
type Level = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

export const runFields = (run: RunState): Record<string, unknown> => ({ run_id: run.id, config: run.config, interface: run.iface });

/** Writes the action's messages of `phase`, interpolated against the scope as it is now. */
export function logPhase(a: ActionPlan, phase: LogPhase, s: Scope, run: RunState, services: Services, extra?: Record<string, unknown>): void {
  const log = services.log;
  const leaf = a.logs?.[phase];
  if (!log || !leaf) return;
  // Built up from runFields' literal, not spread into another (values/build.ts).
  const base: Record<string, unknown> = runFields(run);
  base.action = a.name;
  base.log = `${phase}_log`;
  if (extra) Object.assign(base, extra);
  let list: unknown;
  try { list = leaf(s); } catch (e) {
    log.warn({ ...base, reason: (e as Error).message }, `${phase}_log of action "${a.name}" could not be built`);
    return;
  }
  for (const m of Array.isArray(list) ? list : []) write(log, m as { msg?: unknown; level?: unknown; json?: unknown }, base);
}

function write(log: Logger, m: { msg?: unknown; level?: unknown; json?: unknown }, base: Record<string, unknown>): void {
  const level = (typeof m.level === 'string' && LEVELS.has(m.level) ? m.level : 'info') as Level;
  if (m.json === true) {
    // json: true logs the interpolated message as structured data (text that holds JSON is parsed).
    log[level]({ ...base, data: parsed(m.msg) }, String(base.log));
  } else log[level](base, text(m.msg));
}

function parsed(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try { return JSON.parse(v); } catch { return v; }
}

/** One line per action that ended failed: why, and after how many attempts. */
export function logActionFailed(a: ActionPlan, run: RunState, services: Services, attempt: number, reason: string | undefined): void {
  services.log?.warn({ ...runFields(run), action: a.name, attempt, reason: reason ?? 'failed' }, `action "${a.name}" failed`);
}
