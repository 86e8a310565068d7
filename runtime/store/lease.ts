// Progress of a run held under a lease (resumed, taken over, or a scheduled tick on a durable
// store): a checkpoint after each action, redacted like every stored run. When the node no longer
// holds the run (its lease expired and another node took it over), the run stops here.
import type { RunState } from '../run-state.ts';
import type { Environment } from '../scope.ts';
import type { Store } from '../store-types.ts';
import { redactorOf, redactRun } from '../values/redact.ts';

export class LeaseLost extends Error {
  constructor(id: string) { super(`run ${id}: lease lost to another node; left to it`); }
}

export function leasedCheckpoint(store: Store, env: Environment, node: string): (state: RunState) => Promise<void> {
  const redact = redactorOf(env);
  return async (st) => {
    if (!(await store.checkpoint(redactRun(st, redact), node))) throw new LeaseLost(st.id);
  };
}

/** Keeps a held run's lease alive while one action runs longer than the lease (checkpoints renew
 *  it between actions). Returns the function that stops renewing. */
export function renewWhileHeld(store: Store, id: string, node: string): () => void {
  const lease = store.leaseMs;
  if (!lease || !store.durable) return () => {};
  const t = setInterval(() => { store.renewLeases([id], node).catch(() => {}); }, Math.max(50, lease / 3));
  return () => clearInterval(t);
}
