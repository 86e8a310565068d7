// The durable store: everything that outlives one process goes through this interface.
// Two implementations: memory.ts (the embedded default, single node, not durable) and
// postgres.ts (SERVICE__DATABASE_URL; durable, shared by every node).
import type { RunState } from './run-state.ts';

/** A finished run's record as JSON text not yet redacted, and the redaction that makes it storable. */
/** A finished run's record as text: `parts` joined (kept apart so that a store writing them out, as the
 *  memory store's ring does, never builds and flattens one long string), unredacted until `redact`. */
export interface RecordText { parts: readonly string[]; redact(raw: string): string }

export interface SuspendedRun {
  state: RunState;
  /** When the scheduler should resume it (a delay, a retry wait, or a callback's timeout). */
  wakeAt: Date | null;
  /** The callback token parking it, if any. */
  token: string | null;
}

export type TokenClaim =
  | { kind: 'claimed'; state: RunState }
  | { kind: 'unknown' }
  | { kind: 'expired' }
  | { kind: 'resumed' }
  /** The run was cancelled while it waited (POST /_ap/runs/<id>/cancel). */
  | { kind: 'cancelled' };

/** A run as the runs list shows it (GET /_ap/runs): what the store's columns hold, no document. */
export interface RunEntry {
  id: string;
  config: string;
  iface: string;
  trigger: RunState['trigger'];
  status: RunState['status'];
  /** ISO instants: when the run started, and when its record was last written (its end, once finished). */
  startedAt: string;
  updatedAt: string;
  /** The status code the run answered with, once it has an answer. */
  httpCode?: number;
  /** Where a suspended run waits. */
  wake?: { reason: string; action: string; at?: string };
}

/** A page of the runs list: newest first by (startedAt, id); `before` is the last entry of the previous page. */
export interface RunQuery {
  config?: string;
  iface?: string;
  status?: RunState['status'];
  trigger?: RunState['trigger'];
  /** ISO instants bounding startedAt: since inclusive, until exclusive. */
  since?: string;
  until?: string;
  before?: { startedAt: string; id: string };
  limit: number;
}

export type CancelOutcome =
  | { kind: 'cancelled'; state: RunState }
  | { kind: 'unknown' }
  /** The run is not waiting (running on a node, or finished): nothing to cancel. */
  | { kind: 'not-waiting'; status: RunState['status'] };

export interface StateEntry {
  value: unknown;
  /** Epoch ms; absent = no expiry. */
  expiresAt?: number;
}

export interface CapturedRun {
  id: string;
  config: string;
  iface: string;
  at: string;
  status: 'succeeded' | 'failed';
  replayable: boolean;
  /** The action that made the run inspect-only (replayable: false). */
  notReplayableBecause?: string;
  /** The run state with secrets redacted. */
  state: RunState;
}

export interface Store {
  /** True when runs survive a restart and are shared by nodes (Postgres). */
  readonly durable: boolean;
  /** How long a claim holds without renewal (durable stores). */
  readonly leaseMs?: number;
  /** Creates or migrates the schema (idempotent; safe when several nodes start at once). */
  init(): Promise<void>;
  close(): Promise<void>;
  /** Resolves when the store answers (GET /_ap/ready); absent: always reachable (in memory). */
  ping?(): Promise<void>;

  // Runs. A suspended run is claimed by exactly one node: claimDue/claimToken are atomic.
  suspend(run: SuspendedRun): Promise<void>;
  /** Claims up to `limit` suspended runs whose wakeAt <= now, and running runs whose lease expired
   *  (their node died: taken over from the last checkpoint); each is returned to one caller only. */
  claimDue(now: Date, limit: number, node: string): Promise<RunState[]>;
  /** Claims the run parked under `token` (at most once). */
  claimToken(token: string, now: Date, node: string, body?: unknown): Promise<TokenClaim>;
  /** A claimed run's progress (after each completed action) by the node holding it; renews the lease.
   *  False when the node no longer holds it (its lease expired and another node took it over). */
  checkpoint(state: RunState, node: string): Promise<boolean>;
  /** Extends the leases of runs this node holds (called while an action runs longer than a lease). */
  renewLeases(ids: string[], node: string): Promise<void>;
  /** Records a finished (or running) run's final state; the run is no longer suspended. `json`:
   *  the state's JSON text, when the caller has it already, or a record still to be redacted (a
   *  store that keeps runs in memory redacts it only when the run is read). */
  saveRun(state: RunState, json?: string | RecordText): Promise<void>;
  /** saveRun for the record of a finished run never stored before, done synchronously by a store
   *  that keeps records in this process (memory); false when the run must go through saveRun. */
  keepFinished?(state: RunState, json: RecordText): boolean;
  loadRun(id: string): Promise<RunState | undefined>;
  /** Forgets finished runs last written before `before` (bounded retention); returns how many. */
  pruneFinished?(before: Date): Promise<number>;
  /** The runs with a record, newest first (GET /_ap/runs); the same order and filters in every store. */
  listRuns(q: RunQuery): Promise<RunEntry[]>;
  /** Ends a suspended run as `end(state)` (status cancelled), atomically: of concurrent cancels,
   *  resumes, timeouts and takeovers exactly one wins. Its token is kept, so a resume reads as cancelled. */
  cancelRun(id: string, end: (state: RunState) => RunState): Promise<CancelOutcome>;
  /** The callback token a suspended run waits on (the runs API masks it in what it shows). */
  waitingToken(id: string): Promise<string | undefined>;
  /** How many runs are suspended (metrics, tests). */
  countSuspended(): Promise<number>;

  // Key/value state (namespaced by config). Atomic under concurrent runs and nodes.
  stateGet(ns: string, keys: string[], now: number): Promise<Record<string, unknown>>;
  stateSet(ns: string, key: string, value: unknown, ttlMs: number | undefined, now: number): Promise<void>;
  /** Stores `value` only when it is greater than the current one (numbers, or strings compared as text). */
  stateAdvance(ns: string, key: string, value: unknown, ttlMs: number | undefined, now: number): Promise<{ advanced: boolean; value: unknown }>;
  stateIncrement(ns: string, key: string, by: number, ttlMs: number | undefined, now: number): Promise<number>;
  stateDelete(ns: string, key: string): Promise<boolean>;

  /** only_new: returns the ids not seen before in (ns, key) and records them, in one atomic write;
   *  without ttl only the newest `cap` ids are kept. */
  markSeen(ns: string, key: string, ids: string[], ttlMs: number | undefined, cap: number, now: number): Promise<Set<string>>;

  /** Schedules: true for exactly one caller per (schedule, tick). A durable store records `run` (the
   *  tick's run, held by `node` under a lease) in the same transaction, so a node dying right after
   *  the claim leaves a run that another node takes over, never a claimed tick that nobody runs. */
  claimTick(schedule: string, tickAt: Date, node: string, run?: RunState): Promise<boolean>;

  // Captured runs (execution history).
  saveCapture(c: CapturedRun): Promise<void>;
  listCaptures(filter: { config?: string; iface?: string; limit?: number }): Promise<CapturedRun[]>;
  getCapture(id: string): Promise<CapturedRun | undefined>;
}
