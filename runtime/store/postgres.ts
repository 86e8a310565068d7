// The durable store (SERVICE__DATABASE_URL), shared by every node. Claims are single statements with
// row locks (FOR UPDATE SKIP LOCKED, conditional UPDATE, ON CONFLICT), so each run, token and tick
// goes to exactly one node.
import pg from 'pg';
import type { RunState } from '../run-state.ts';
import { DEFAULT_CAPTURE_LIMIT, tokenRefusal } from './compare.ts';
import { PgKv } from './pg-kv.ts';
import { migrate, quoteSchema } from './pg-schema.ts';
import type { CapturedRun, RecordText, Store, SuspendedRun, TokenClaim } from '../store-types.ts';

export interface PostgresOptions {
  url: string;
  /** Postgres schema holding the tables; default `pipewright`. */
  schema?: string;
  /** Pool size; default 10. */
  max?: number;
  /** How long a claim holds without renewal (SERVICE__LEASE_SECS); default 30 s. */
  leaseMs?: number;
}

/** Claimed ticks older than this are deleted: no node claims a tick that late. */
const TICK_RETENTION = `interval '1 day'`;

export class PostgresStore implements Store {
  readonly durable = true;
  readonly pool: pg.Pool;
  private readonly schema: string;
  private readonly s: string;
  private readonly kv: PgKv;
  private readonly lease: string;
  readonly leaseMs: number;

  constructor(o: PostgresOptions) {
    this.schema = o.schema ?? 'pipewright';
    this.s = quoteSchema(this.schema);
    this.pool = new pg.Pool({ connectionString: o.url, max: o.max ?? 10 });
    this.pool.on('error', () => {}); // an idle client's lost connection is replaced on next use
    this.kv = new PgKv(this.pool, this.s);
    this.leaseMs = Math.max(1, Math.round(o.leaseMs ?? 30_000));
    this.lease = `${this.leaseMs} milliseconds`;
  }

  async init(): Promise<void> { await migrate(this.pool, this.schema); }
  async close(): Promise<void> { await this.pool.end(); }
  async ping(): Promise<void> { await this.pool.query('SELECT 1'); }

  async suspend(run: SuspendedRun): Promise<void> {
    const st = run.state;
    await this.pool.query(
      `INSERT INTO ${this.s}.runs (id, config, iface, status, wake_at, token, state, updated_at) VALUES ($1, $2, $3, 'suspended', $4, $5, $6::json, now())
       ON CONFLICT (id) DO UPDATE SET status = 'suspended', wake_at = EXCLUDED.wake_at, token = EXCLUDED.token,
         claimed_by = NULL, claimed_at = NULL, state = EXCLUDED.state, updated_at = now()`,
      [st.id, st.config, st.iface, run.wakeAt, run.token, JSON.stringify(st)]);
  }

  async claimDue(now: Date, limit: number, node: string): Promise<RunState[]> {
    // A materialized CTE: as `id IN (subquery)` the planner may re-run the LIMIT subquery and claim more.
    // wake_at is kept on purpose: a callback arriving after its wait timed out reads as expired.
    const { rows } = await this.pool.query(
      `WITH due AS MATERIALIZED (SELECT id FROM ${this.s}.runs
         WHERE (status = 'suspended' AND wake_at <= $1) OR (status = 'running' AND lease_until < $1)
         ORDER BY coalesce(lease_until, wake_at) LIMIT $2 FOR UPDATE SKIP LOCKED)
       UPDATE ${this.s}.runs r SET status = 'running', claimed_by = $3, claimed_at = $1, lease_until = $1::timestamptz + $4::interval, updated_at = now()
       FROM due WHERE r.id = due.id RETURNING r.state, r.wake_at, r.claimed_at`, [now, Math.max(0, limit), node, this.lease]);
    const at = (r: { wake_at: Date | null; claimed_at: Date }) => (r.wake_at ?? r.claimed_at).getTime();
    return rows.sort((a, b) => at(a) - at(b)).map((r) => r.state as RunState);
  }

  async claimToken(token: string, now: Date, node: string): Promise<TokenClaim> {
    // Clearing wake_at marks "resumed by its callback" (see tokenRefusal).
    const { rows } = await this.pool.query(
      `UPDATE ${this.s}.runs SET status = 'running', wake_at = NULL, claimed_by = $3, claimed_at = $2, lease_until = $2::timestamptz + $4::interval, updated_at = now()
       WHERE token = $1 AND status = 'suspended' AND (wake_at IS NULL OR wake_at > $2) RETURNING state`, [token, now, node, this.lease]);
    if (rows.length) return { kind: 'claimed', state: rows[0].state as RunState };
    const r = await this.pool.query(`SELECT status, wake_at FROM ${this.s}.runs WHERE token = $1`, [token]);
    if (!r.rows.length) return { kind: 'unknown' };
    return { kind: tokenRefusal(r.rows[0].status, r.rows[0].wake_at?.getTime() ?? null, now.getTime()) };
  }

  async checkpoint(state: RunState, node: string): Promise<boolean> {
    // The first checkpoint of a run that was never stored (a scheduled tick) inserts it as held.
    const r = await this.pool.query(
      `INSERT INTO ${this.s}.runs (id, config, iface, status, claimed_by, claimed_at, lease_until, state, updated_at)
       VALUES ($1, $5, $6, 'running', $2, now(), now() + $4::interval, $3::json, now())
       ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state, lease_until = EXCLUDED.lease_until, updated_at = now()
       WHERE runs.status = 'running' AND runs.claimed_by = $2`, [state.id, node, JSON.stringify(state), this.lease, state.config, state.iface]);
    return r.rowCount === 1;
  }

  async renewLeases(ids: string[], node: string): Promise<void> {
    if (!ids.length) return;
    await this.pool.query(`UPDATE ${this.s}.runs SET lease_until = now() + $3::interval WHERE id = ANY($1) AND status = 'running' AND claimed_by = $2`, [ids, node, this.lease]);
  }

  async saveRun(state: RunState, json?: string | RecordText): Promise<void> {
    if (state.status === 'suspended') throw new Error('saveRun records a running or finished run; park it with suspend()');
    await this.pool.query(
      `INSERT INTO ${this.s}.runs (id, config, iface, status, state, updated_at) VALUES ($1, $2, $3, $4, $5::json, now())
       ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, state = EXCLUDED.state, updated_at = now()`,
      [state.id, state.config, state.iface, state.status, typeof json === 'object' ? json.redact(json.parts.join('')) : json ?? JSON.stringify(state)]);
  }

  async loadRun(id: string): Promise<RunState | undefined> {
    const { rows } = await this.pool.query(`SELECT state FROM ${this.s}.runs WHERE id = $1`, [id]);
    return rows[0]?.state;
  }

  async pruneFinished(before: Date): Promise<number> {
    const r = await this.pool.query(`DELETE FROM ${this.s}.runs WHERE status IN ('succeeded', 'failed') AND updated_at < $1`, [before]);
    return r.rowCount ?? 0;
  }

  async countSuspended(): Promise<number> {
    const { rows } = await this.pool.query(`SELECT count(*)::int AS n FROM ${this.s}.runs WHERE status = 'suspended'`);
    return rows[0].n;
  }

  stateGet = (ns: string, keys: string[], now: number) => this.kv.get(ns, keys, now);
  stateSet = (ns: string, key: string, value: unknown, ttlMs: number | undefined, now: number) => this.kv.set(ns, key, value, ttlMs, now);
  stateAdvance = (ns: string, key: string, value: unknown, ttlMs: number | undefined, now: number) => this.kv.advance(ns, key, value, ttlMs, now);
  stateIncrement = (ns: string, key: string, by: number, ttlMs: number | undefined, now: number) => this.kv.increment(ns, key, by, ttlMs, now);
  stateDelete = (ns: string, key: string) => this.kv.delete(ns, key);
  markSeen = (ns: string, key: string, ids: string[], ttlMs: number | undefined, cap: number, now: number) => this.kv.markSeen(ns, key, ids, ttlMs, cap, now);

  async claimTick(schedule: string, tickAt: Date, node: string, run?: RunState): Promise<boolean> {
    // One statement, so one transaction: the claim and the held run are stored together or not at all.
    const r = run
      ? await this.pool.query(
        `WITH claim AS (INSERT INTO ${this.s}.ticks (schedule, tick_at, node) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING 1),
         held AS (INSERT INTO ${this.s}.runs (id, config, iface, status, claimed_by, claimed_at, lease_until, state, updated_at)
           SELECT $4, $5, $6, 'running', $3, now(), now() + $7::interval, $8::json, now() FROM claim)
         SELECT 1 FROM claim`, [schedule, tickAt, node, run.id, run.config, run.iface, this.lease, JSON.stringify(run)])
      : await this.pool.query(`INSERT INTO ${this.s}.ticks (schedule, tick_at, node) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [schedule, tickAt, node]);
    if (r.rowCount !== 1) return false;
    await this.pool.query(`DELETE FROM ${this.s}.ticks WHERE schedule = $1 AND tick_at < $2::timestamptz - ${TICK_RETENTION}`, [schedule, tickAt]);
    return true;
  }

  async saveCapture(c: CapturedRun): Promise<void> {
    await this.pool.query(
      `INSERT INTO ${this.s}.captures (id, config, iface, at, status, replayable, reason, state) VALUES ($1, $2, $3, $4, $5, $6, $7, $8::json)
       ON CONFLICT (id) DO UPDATE SET config = EXCLUDED.config, iface = EXCLUDED.iface, at = EXCLUDED.at, status = EXCLUDED.status,
         replayable = EXCLUDED.replayable, reason = EXCLUDED.reason, state = EXCLUDED.state`,
      [c.id, c.config, c.iface, new Date(c.at), c.status, c.replayable, c.notReplayableBecause ?? null, JSON.stringify(c.state)]);
  }

  async listCaptures(f: { config?: string; iface?: string; limit?: number }): Promise<CapturedRun[]> {
    const { rows } = await this.pool.query(
      `SELECT * FROM ${this.s}.captures WHERE ($1::text IS NULL OR config = $1) AND ($2::text IS NULL OR iface = $2)
       ORDER BY at DESC, id COLLATE "C" DESC LIMIT $3`, [f.config ?? null, f.iface ?? null, f.limit ?? DEFAULT_CAPTURE_LIMIT]);
    return rows.map(captureOf);
  }

  async getCapture(id: string): Promise<CapturedRun | undefined> {
    const { rows } = await this.pool.query(`SELECT * FROM ${this.s}.captures WHERE id = $1`, [id]);
    return rows.length ? captureOf(rows[0]) : undefined;
  }
}

function captureOf(r: Record<string, any>): CapturedRun {
  return {
    id: r.id, config: r.config, iface: r.iface, at: (r.at as Date).toISOString(), status: r.status, replayable: r.replayable,
    ...(r.reason !== null ? { notReplayableBecause: r.reason } : {}), state: r.state,
  };
}
