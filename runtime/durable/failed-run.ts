// A held run that cannot go on (resuming it threw, its plan is gone, or it was taken over too many
// times) ends failed with a 500 answer saying why, so a client polling GET /_ap/runs/<id> gets one.
// Recorded only while this node still holds the run: a node that lost it leaves it to the holder.
import type { RunState } from '../run-state.ts';
import type { Environment } from '../scope.ts';
import type { Store } from '../store-types.ts';
import type { RunResult } from '../exec/run.ts';
import { redactorOf, redactRun } from '../values/redact.ts';

export interface FailedRunContext { store: Store; env: Environment; node: string }

/** Records `run` failed with `why` as its 500 answer; undefined when another node holds it now. */
export async function failHeld(o: FailedRunContext, run: RunState, why: string, action?: string): Promise<RunResult | undefined> {
  const redact = redactorOf(o.env);
  // The checkpoint is the lease check the finish path has too (the last action's checkpoint): it is
  // refused when the lease expired and another node took the run over.
  if (!(await o.store.checkpoint(redactRun(run, redact), o.node))) return undefined;
  const where = `interface "${run.iface}" of config "${run.config}"${action ? `, action "${action}"` : ''}`;
  const error: Record<string, unknown> = { status: 500, message: `the run failed while resuming (${where}): ${why}` };
  if (action) error.action = action;
  const response = { status: 500, headers: {}, body: { error } };
  const failed: RunState = { ...run, status: 'failed', response };
  delete failed.wake;
  // Stored redacted like every run record: the reason may quote a secret (an upstream's message).
  await o.store.saveRun(redactRun(failed, redact));
  return { state: failed, response, recorded: true };
}
