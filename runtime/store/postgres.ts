// The durable store (SERVICE__DATABASE_URL), shared by every node. Claims are single statements with
// row locks (FOR UPDATE SKIP LOCKED, conditional UPDATE, ON CONFLICT), so each run, token and tick
// goes to exactly one node.
import pg from 'pg';
import type { RunState } from '../run-state.ts';
import { DEFAULT_CAPTURE_LIMIT, tokenRefusal } from './compare.ts';
import { PgKv } from './pg-kv.ts';
import { migrate, quoteSchema } from './pg-schema.ts';
import type { CancelOutcome, CapturedRun, RecordText, RunEntry, RunQuery, Store, SuspendedRun, TokenClaim } from '../store-types.ts';

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
    // A connect that gets no answer (a host cut off, a stopped server) fails in 5 s rather than waiting
    // for TCP's own timeout: the request is answered 503 and the resumer backs off.
    this.pool = new pg.Pool({ connectionString: o.url, max: o.max ?? 10, connectionTimeoutMillis: 5000 });
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
      `INSERT INTO ${this.s}.runs (id, config, iface, status, wake_at, token, state, updated_at, trigger, started_at) VALUES ($1, $2, $3, 'suspended', $4, $5, $6::json, now(), $7, $8)
       ON CONFLICT (id) DO UPDATE SET status = 'suspended', wake_at = EXCLUDED.wake_at, token = EXCLUDED.token,
         claimed_by = NULL, claimed_at = NULL, state = EXCLUDED.state, updated_at = now()`,
      [st.id, st.config, st.iface, run.wakeAt, run.token, JSON.stringify(st), st.trigger, st.startedAt]);
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

  async claimToken(token: string, now: Date, node: string, body?: unknown): Promise<TokenClaim> {
    // Clearing wake_at marks "resumed by its callback" (see tokenRefusal). The callback's body is
    // stored with the claim (RunState.callback): a takeover continues with it.
    const { rows } = await this.pool.query(
      `UPDATE ${this.s}.runs SET status = 'running', wake_at = NULL, claimed_by = $3, claimed_at = $2, lease_until = $2::timestamptz + $4::interval, updated_at = now(),
         state = (state::jsonb || jsonb_build_object('callback', jsonb_build_object('body', $5::jsonb)))::json
       WHERE token = $1 AND status = 'suspended' AND (wake_at IS NULL OR wake_at > $2) RETURNING state`, [token, now, node, this.lease, JSON.stringify(body ?? null)]);
    if (rows.length) return { kind: 'claimed', state: rows[0].state as RunState };
    const r = await this.pool.query(`SELECT status, wake_at FROM ${this.s}.runs WHERE token = $1`, [token]);
    if (!r.rows.length) return { kind: 'unknown' };
    return { kind: tokenRefusal(r.rows[0].status, r.rows[0].wake_at?.getTime() ?? null, now.getTime()) };
  }

  async checkpoint(state: RunState, node: string): Promise<boolean> {
    // The first checkpoint of a run that was never stored (a scheduled tick) inserts it as held.
    const r = await this.pool.query(
      `INSERT INTO ${this.s}.runs (id, config, iface, status, claimed_by, claimed_at, lease_until, state, updated_at, trigger, started_at)
       VALUES ($1, $5, $6, 'running', $2, now(), now() + $4::interval, $3::json, now(), $7, $8)
       ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state, lease_until = EXCLUDED.lease_until, updated_at = now()
       WHERE runs.status = 'running' AND runs.claimed_by = $2`, [state.id, node, JSON.stringify(state), this.lease, state.config, state.iface, state.trigger, state.startedAt]);
    return r.rowCount === 1;
  }

  async renewLeases(ids: string[], node: string): Promise<void> {
    if (!ids.length) return;
    await this.pool.query(`UPDATE ${this.s}.runs SET lease_until = now() + $3::interval WHERE id = ANY($1) AND status = 'running' AND claimed_by = $2`, [ids, node, this.lease]);
  }

  async saveRun(state: RunState, json?: string | RecordText): Promise<void> {
    if (state.status === 'suspended') throw new Error('saveRun records a running or finished run; park it with suspend()');
    await this.pool.query(
      `INSERT INTO ${this.s}.runs (id, config, iface, status, state, updated_at, trigger, started_at, http_code) VALUES ($1, $2, $3, $4, $5::json, now(), $6, $7, $8)
       ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, state = EXCLUDED.state, http_code = EXCLUDED.http_code, updated_at = now()`,
      [state.id, state.config, state.iface, state.status, typeof json === 'object' ? json.redact(json.parts.join('')) : json ?? JSON.stringify(state),
        state.trigger, state.startedAt, state.status === 'running' ? null : state.response?.status ?? null]);
  }

  async loadRun(id: string): Promise<RunState | undefined> {
    const { rows } = await this.pool.query(`SELECT state FROM ${this.s}.runs WHERE id = $1`, [id]);
    return rows[0]?.state;
  }

  async pruneFinished(before: Date): Promise<number> {
    const r = await this.pool.query(`DELETE FROM ${this.s}.runs WHERE status IN ('succeeded', 'failed', 'cancelled') AND updated_at < $1`, [before]);
    return r.rowCount ?? 0;
  }

  async listRuns(q: RunQuery): Promise<RunEntry[]> {
    const { text, values } = listRunsSql(this.s, q);
    const { rows } = await this.pool.query(text, values);
    return rows.map((r): RunEntry => ({
      id: r.id, config: r.config, iface: r.iface, trigger: r.trigger, status: r.status,
      startedAt: (r.started_at as Date).toISOString(), updatedAt: (r.updated_at as Date).toISOString(),
      ...(r.http_code !== null ? { httpCode: r.http_code } : {}),
      ...(r.wake ? { wake: { reason: r.wake.reason, action: r.wake.action, ...(r.wake.at ? { at: r.wake.at } : {}) } } : {}),
    }));
  }

  async cancelRun(id: string, end: (state: RunState) => RunState): Promise<CancelOutcome> {
    // The row lock orders this against a resume's or the resumer's claim (each an UPDATE ... WHERE
    // status = 'suspended'): whichever commits first wins, the other finds the run no longer waiting.
    const c = await this.pool.connect();
    try {
      await c.query('BEGIN');
      const { rows } = await c.query(`SELECT status, state FROM ${this.s}.runs WHERE id = $1 FOR UPDATE`, [id]);
      let out: CancelOutcome;
      if (!rows.length) out = { kind: 'unknown' };
      else if (rows[0].status !== 'suspended') out = { kind: 'not-waiting', status: rows[0].status };
      else {
        const state = end(rows[0].state as RunState);
        // The token stays: a resume with it reads as cancelled (tokenRefusal).
        await c.query(
          `UPDATE ${this.s}.runs SET status = 'cancelled', wake_at = NULL, claimed_by = NULL, claimed_at = NULL, lease_until = NULL,
             http_code = $2, state = $3::json, updated_at = now() WHERE id = $1`, [id, state.response?.status ?? null, JSON.stringify(state)]);
        out = { kind: 'cancelled', state };
      }
      await c.query('COMMIT');
      return out;
    } catch (e) {
      await c.query('ROLLBACK').catch(() => {});
      throw e;
    } finally {
      c.release();
    }
  }

  async waitingToken(id: string): Promise<string | undefined> {
    const { rows } = await this.pool.query(`SELECT token FROM ${this.s}.runs WHERE id = $1 AND status = 'suspended'`, [id]);
    return rows[0]?.token ?? undefined;
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
         held AS (INSERT INTO ${this.s}.runs (id, config, iface, status, claimed_by, claimed_at, lease_until, state, updated_at, trigger, started_at)
           SELECT $4, $5, $6, 'running', $3, now(), now() + $7::interval, $8::json, now(), $9, $10::timestamptz FROM claim)
         SELECT 1 FROM claim`, [schedule, tickAt, node, run.id, run.config, run.iface, this.lease, JSON.stringify(run), run.trigger, run.startedAt])
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

/** The runs list's statement (exported for bench/runs-list-plan.ts, which shows its plan). Only
 *  the filters given, as plain conditions: the planner then walks an index in the list's order from
 *  the cursor and stops after `limit` matches (docs/decisions.md, "Runs API"). */
export function listRunsSql(s: string, q: RunQuery): { text: string; values: unknown[] } {
  const where: string[] = [];
  const values: unknown[] = [];
  const arg = (v: unknown) => { values.push(v); return `$${values.length}`; };
  if (q.config !== undefined) where.push(`config = ${arg(q.config)}`);
  if (q.iface !== undefined) where.push(`iface = ${arg(q.iface)}`);
  if (q.status !== undefined) where.push(`status = ${arg(q.status)}`);
  if (q.trigger !== undefined) where.push(`trigger = ${arg(q.trigger)}`);
  if (q.since !== undefined) where.push(`started_at >= ${arg(q.since)}::timestamptz`);
  if (q.until !== undefined) where.push(`started_at < ${arg(q.until)}::timestamptz`);
  if (q.before) where.push(`(started_at, id COLLATE "C") < (${arg(q.before.startedAt)}::timestamptz, ${arg(q.before.id)}::text COLLATE "C")`);
  const text = `SELECT id, config, iface, trigger, status, started_at, updated_at, http_code, CASE WHEN status = 'suspended' THEN state->'wake' END AS wake
     FROM ${s}.runs${where.length ? ` WHERE ${where.join(' AND ')}` : ''}
     ORDER BY started_at DESC, id COLLATE "C" DESC LIMIT ${arg(q.limit)}`;
  return { text, values };
}

function captureOf(r: Record<string, any>): CapturedRun {
  return {
    id: r.id, config: r.config, iface: r.iface, at: (r.at as Date).toISOString(), status: r.status, replayable: r.replayable,
    ...(r.reason !== null ? { notReplayableBecause: r.reason } : {}), state: r.state,
  };
}
