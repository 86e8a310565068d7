// The embedded store (no SERVICE__DATABASE_URL): one process, nothing survives a restart.
// Runs are kept as JSON text, so callers get copies, as they would from Postgres. The records of
// runs that finished without ever being parked (every HTTP run) go to a ring buffer, unredacted,
// and are redacted when read (most never are).
import type { RunState } from '../run-state.ts';
import { DEFAULT_CAPTURE_LIMIT, newerRunFirst, tokenRefusal } from './compare.ts';
import { MemoryKv } from './memory-kv.ts';
import { TextRing } from './text-ring.ts';
import type { CancelOutcome, CapturedRun, RecordText, RunEntry, RunQuery, Store, SuspendedRun, TokenClaim } from '../store-types.ts';

/** A list entry as kept: its last write as epoch ms (made an ISO text only when listed). */
type Entry = Omit<RunEntry, 'updatedAt'> & { updatedMs: number };

interface RunRow { json: string; status: RunState['status']; wakeAt: number | null; token: string | null }

/** Finished runs kept for loadRun; older ones are forgotten (memory would grow with every run). */
const MAX_FINISHED = 10_000;
/** The ring's bytes: records of runs with large responses are forgotten sooner. Every page of it is
 *  resident once the ring has come round, so it is part of the server's memory under load (8 MiB: a
 *  passthrough record of ~1.4 KB keeps the newest ~5,800; records under ~840 bytes the newest 10,000). */
const MAX_FINISHED_BYTES = 8 * 1024 * 1024;
/** Claimed ticks older than this are forgotten: no node claims a tick that late. */
const TICK_MEMORY_MS = 86_400_000;

export class MemoryStore implements Store {
  readonly durable: boolean = false;
  private readonly runs = new Map<string, RunRow>();
  private readonly tokens = new Map<string, string>();
  private readonly finished = new Set<string>();
  private readonly ticks = new Map<string, Set<number>>();
  private readonly captures = new Map<string, string>();
  private readonly kv = new MemoryKv();
  private readonly records = new TextRing<RecordText['redact']>(MAX_FINISHED_BYTES, MAX_FINISHED);
  /** The runs list's entries, one per run with a record (an entry whose record the ring or the
   *  count bound forgot is dropped when seen: `sweep`). Only kept runs have one, so none is made
   *  for a run that answered its caller with a success. */
  private readonly entries = new Map<string, Entry>();

  async init(): Promise<void> {}
  async close(): Promise<void> {}

  async suspend(run: SuspendedRun): Promise<void> {
    const id = run.state.id;
    const owner = run.token === null ? undefined : this.tokens.get(run.token);
    if (owner !== undefined && owner !== id) throw new Error(`callback token already parks run ${owner}`);
    const old = this.runs.get(id);
    if (old?.token != null && old.token !== run.token) this.tokens.delete(old.token);
    if (run.token !== null) this.tokens.set(run.token, id);
    this.finished.delete(id);
    this.records.delete(id);
    this.runs.set(id, { json: JSON.stringify(run.state), status: 'suspended', wakeAt: run.wakeAt?.getTime() ?? null, token: run.token });
    this.note(run.state);
  }

  async claimDue(now: Date, limit: number, _node: string): Promise<RunState[]> {
    const due = [...this.runs.values()]
      .filter((r) => r.status === 'suspended' && r.wakeAt !== null && r.wakeAt <= now.getTime())
      .sort((a, b) => a.wakeAt! - b.wakeAt!)
      .slice(0, Math.max(0, limit));
    for (const r of due) r.status = 'running'; // wakeAt stays: a later callback reads as expired
    return due.map((r) => this.noted(JSON.parse(r.json) as RunState, 'running'));
  }

  async claimToken(token: string, now: Date, _node: string, body?: unknown): Promise<TokenClaim> {
    const r = this.runs.get(this.tokens.get(token) ?? '');
    if (!r) return { kind: 'unknown' };
    if (r.status !== 'suspended' || (r.wakeAt !== null && r.wakeAt <= now.getTime())) return { kind: tokenRefusal(r.status, r.wakeAt, now.getTime()) };
    r.status = 'running';
    r.wakeAt = null;
    const state = { ...(JSON.parse(r.json) as RunState), callback: { body: body ?? null } };
    r.json = JSON.stringify(state);
    return { kind: 'claimed', state: this.noted(state, 'running') };
  }

  async saveRun(state: RunState, json?: string | RecordText): Promise<void> {
    if (state.status === 'suspended') throw new Error('saveRun records a running or finished run; park it with suspend()');
    if (typeof json === 'object') {
      if (this.keepFinished(state, json)) return;
      json = json.redact(json.parts.join(''));
    }
    const old = this.runs.get(state.id);
    this.runs.set(state.id, { json: json ?? JSON.stringify(state), status: state.status, wakeAt: old?.wakeAt ?? null, token: old?.token ?? null });
    this.note(state);
    if (state.status === 'running') return;
    this.finished.delete(state.id);
    this.finished.add(state.id);
    if (this.finished.size > MAX_FINISHED) this.forget(this.finished.values().next().value!);
  }

  /** saveRun's way for the record of a run that finished without ever being stored (every HTTP
   *  run that did not suspend), done at once: the ring. False, and nothing kept, for any other run. */
  keepFinished(state: RunState, json: RecordText): boolean {
    if (state.status !== 'succeeded' && state.status !== 'failed') return false;
    if (this.runs.has(state.id)) return false;
    // Too large for the ring: the state as given (the caller's, without the response body).
    if (!this.records.set(state.id, json.parts, json.redact)) this.records.set(state.id, [JSON.stringify(state)], json.redact);
    this.note(state);
    return true;
  }

  /** The run's list entry as of this write. */
  private note(st: RunState, status = st.status): void {
    const e: Entry = { id: st.id, config: st.config, iface: st.iface, trigger: st.trigger, status, startedAt: st.startedAt, updatedMs: Date.now() };
    if (st.response && status !== 'suspended' && status !== 'running') e.httpCode = st.response.status;
    if (st.wake && status === 'suspended') e.wake = { reason: st.wake.reason, action: st.wake.action, ...(st.wake.at ? { at: st.wake.at } : {}) };
    this.entries.set(st.id, e);
    if (this.entries.size > 2 * MAX_FINISHED + this.runs.size) this.sweep();
  }

  private noted(st: RunState, status: RunState['status']): RunState {
    this.note(st, status);
    return st;
  }

  /** Drops the entries of runs whose record is forgotten. */
  private sweep(): void {
    for (const id of this.entries.keys()) if (!this.runs.has(id) && !this.records.has(id)) this.entries.delete(id);
  }

  async listRuns(q: RunQuery): Promise<RunEntry[]> {
    this.sweep();
    const b = q.before;
    const hits: Entry[] = [];
    for (const e of this.entries.values()) {
      if ((q.config !== undefined && e.config !== q.config) || (q.iface !== undefined && e.iface !== q.iface)) continue;
      if ((q.status !== undefined && e.status !== q.status) || (q.trigger !== undefined && e.trigger !== q.trigger)) continue;
      if ((q.since !== undefined && e.startedAt < q.since) || (q.until !== undefined && e.startedAt >= q.until)) continue;
      if (b && newerRunFirst(e, b) <= 0) continue;
      hits.push(e);
    }
    return hits.sort(newerRunFirst).slice(0, q.limit).map(({ updatedMs, ...e }) => ({ ...e, updatedAt: new Date(updatedMs).toISOString(), ...(e.wake ? { wake: { ...e.wake } } : {}) }));
  }

  async cancelRun(id: string, end: (state: RunState) => RunState): Promise<CancelOutcome> {
    const r = this.runs.get(id);
    if (!r) return this.records.has(id) ? { kind: 'not-waiting', status: (await this.loadRun(id))!.status } : { kind: 'unknown' };
    if (r.status !== 'suspended') return { kind: 'not-waiting', status: r.status };
    const state = end(JSON.parse(r.json) as RunState);
    // The token stays mapped to the run, so a resume with it reads as cancelled (410).
    r.json = JSON.stringify(state);
    r.status = 'cancelled';
    r.wakeAt = null;
    this.note(state);
    this.finished.add(id);
    if (this.finished.size > MAX_FINISHED) this.forget(this.finished.values().next().value!);
    return { kind: 'cancelled', state };
  }

  private forget(id: string): void {
    const token = this.runs.get(id)?.token;
    if (token != null) this.tokens.delete(token);
    this.runs.delete(id);
    this.finished.delete(id);
    this.entries.delete(id);
  }

  // One process: a claimed run cannot be lost to another node, so there is no lease to keep.
  async checkpoint(state: RunState, _node: string): Promise<boolean> {
    const r = this.runs.get(state.id);
    if (r?.status === 'running') r.json = JSON.stringify(state);
    return true;
  }

  async renewLeases(_ids: string[], _node: string): Promise<void> {}

  async loadRun(id: string): Promise<RunState | undefined> {
    const r = this.runs.get(id);
    if (r) return JSON.parse(r.json) as RunState;
    const kept = this.records.get(id);
    return kept ? (JSON.parse(kept.extra(kept.text)) as RunState) : undefined;
  }

  async waitingToken(id: string): Promise<string | undefined> {
    const r = this.runs.get(id);
    return r?.status === 'suspended' ? r.token ?? undefined : undefined;
  }

  async countSuspended(): Promise<number> {
    let n = 0;
    for (const r of this.runs.values()) if (r.status === 'suspended') n++;
    return n;
  }

  stateGet = async (ns: string, keys: string[], now: number) => this.kv.get(ns, keys, now);
  stateSet = async (ns: string, key: string, value: unknown, ttlMs: number | undefined, now: number) => this.kv.set(ns, key, value, ttlMs, now);
  stateAdvance = async (ns: string, key: string, value: unknown, ttlMs: number | undefined, now: number) => this.kv.advance(ns, key, value, ttlMs, now);
  stateIncrement = async (ns: string, key: string, by: number, ttlMs: number | undefined, now: number) => this.kv.increment(ns, key, by, ttlMs, now);
  stateDelete = async (ns: string, key: string) => this.kv.delete(ns, key);
  markSeen = async (ns: string, key: string, ids: string[], ttlMs: number | undefined, cap: number, now: number) => this.kv.markSeen(ns, key, ids, ttlMs, cap, now);

  async claimTick(schedule: string, tickAt: Date, _node: string): Promise<boolean> {
    let set = this.ticks.get(schedule);
    if (!set) this.ticks.set(schedule, (set = new Set()));
    const t = tickAt.getTime();
    if (set.has(t)) return false;
    set.add(t);
    for (const old of set) if (old < t - TICK_MEMORY_MS) set.delete(old);
    return true;
  }

  async saveCapture(c: CapturedRun): Promise<void> {
    this.captures.set(c.id, JSON.stringify({ ...c, at: new Date(c.at).toISOString() }));
  }

  async listCaptures(f: { config?: string; iface?: string; limit?: number }): Promise<CapturedRun[]> {
    const all = [...this.captures.values()].map((t) => JSON.parse(t) as CapturedRun);
    return all
      .filter((c) => (f.config === undefined || c.config === f.config) && (f.iface === undefined || c.iface === f.iface))
      .sort((a, b) => (a.at === b.at ? (a.id < b.id ? 1 : -1) : a.at < b.at ? 1 : -1))
      .slice(0, f.limit ?? DEFAULT_CAPTURE_LIMIT);
  }

  async getCapture(id: string): Promise<CapturedRun | undefined> {
    const t = this.captures.get(id);
    return t === undefined ? undefined : (JSON.parse(t) as CapturedRun);
  }
}
