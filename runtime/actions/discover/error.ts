// Why a discovery failed: `config` for a value the action cannot use (a mistake, 500), `connect` and
// `timeout` for a backend that could not be reached or did not answer in time (502, 504), `backend`
// for one that answered with an error (502), `refused` for what the operator's settings forbid (managed
// mode: a socket, a namespace; 403). Every one is retried under the non-HTTP retry rule (spec: Retry rules 5).
import type { ActionOutcome } from '../types.ts';

export type DiscoverFailure = 'config' | 'connect' | 'timeout' | 'backend' | 'refused';

export class DiscoverError extends Error {
  constructor(message: string, readonly cls: DiscoverFailure) {
    super(message);
  }
}

export function failed(e: unknown): ActionOutcome {
  const error = `discover: ${e instanceof Error ? e.message : String(e)}`;
  if (e instanceof DiscoverError && e.cls === 'refused') return { ok: false, error, failure: { kind: 'refused', status: 403 } };
  if (!(e instanceof DiscoverError) || e.cls === 'config') return { ok: false, error, failure: { kind: 'other' } };
  return { ok: false, error, failure: { kind: 'transport', cls: e.cls === 'timeout' ? 'timeout' : e.cls === 'connect' ? 'connect' : 'other' } };
}
