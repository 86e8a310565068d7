// The Postgres schema, as numbered migrations. init() applies the missing ones in one transaction
// under an advisory lock, so nodes starting together migrate once and the others wait, then skip.
import type { Pool } from 'pg';
import { underLock } from './pg-create.ts';

// Documents are `json`, not `jsonb`: jsonb reorders object keys and refuses \u0000, and a resumed run
// must answer with the same bytes as one that never left memory. Nothing queries inside them.

/** Each entry moves the schema to version index + 1. Append only: never edit a released one. */
const MIGRATIONS: Array<(s: string) => string> = [
  (s) => `
    CREATE TABLE ${s}.runs (
      id text PRIMARY KEY, config text NOT NULL, iface text NOT NULL, status text NOT NULL,
      wake_at timestamptz, token text UNIQUE, claimed_by text, claimed_at timestamptz,
      state json NOT NULL, updated_at timestamptz NOT NULL DEFAULT now());
    CREATE INDEX runs_due ON ${s}.runs (status, wake_at);
    CREATE TABLE ${s}.state (
      ns text NOT NULL, key text NOT NULL, value json NOT NULL, expires_at timestamptz,
      PRIMARY KEY (ns, key));
    CREATE TABLE ${s}.seen (
      ns text NOT NULL, key text NOT NULL, id text NOT NULL, seen_at timestamptz NOT NULL, expires_at timestamptz,
      PRIMARY KEY (ns, key, id));
    CREATE INDEX seen_age ON ${s}.seen (ns, key, seen_at, id COLLATE "C");
    CREATE TABLE ${s}.ticks (
      schedule text NOT NULL, tick_at timestamptz NOT NULL, node text NOT NULL,
      PRIMARY KEY (schedule, tick_at));
    CREATE TABLE ${s}.captures (
      id text PRIMARY KEY, config text NOT NULL, iface text NOT NULL, at timestamptz NOT NULL,
      status text NOT NULL, replayable boolean NOT NULL, reason text, state json NOT NULL);
    CREATE INDEX captures_recent ON ${s}.captures (config, iface, at DESC);`,
  // Leases: a claimed run is held until lease_until; its node renews it, another node takes it over after.
  (s) => `
    ALTER TABLE ${s}.runs ADD COLUMN lease_until timestamptz;
    CREATE INDEX runs_leases ON ${s}.runs (lease_until) WHERE status = 'running';`,
  // The runs list (GET /_ap/runs): what it shows and filters on as columns, and its keyset order
  // (started_at, id) newest first as an index, whole and after each filter that may be rare (an
  // interface, a status, a trigger), so a page reads about `limit` index entries whatever the
  // filter; and the retention's prune (every minute) finds the expired records without reading the
  // table (plans at a million rows: docs/decisions.md, "Runs API").
  (s) => `
    ALTER TABLE ${s}.runs ADD COLUMN trigger text, ADD COLUMN started_at timestamptz, ADD COLUMN http_code int;
    UPDATE ${s}.runs SET trigger = state->>'trigger', started_at = coalesce((state->>'startedAt')::timestamptz, updated_at),
      http_code = CASE WHEN status IN ('succeeded', 'failed') THEN (state->'response'->>'status')::int END;
    CREATE INDEX runs_recent ON ${s}.runs (started_at DESC, id COLLATE "C" DESC);
    CREATE INDEX runs_recent_iface ON ${s}.runs (iface, started_at DESC, id COLLATE "C" DESC);
    CREATE INDEX runs_recent_status ON ${s}.runs (status, started_at DESC, id COLLATE "C" DESC);
    CREATE INDEX runs_recent_trigger ON ${s}.runs (trigger, started_at DESC, id COLLATE "C" DESC);
    CREATE INDEX runs_finished_age ON ${s}.runs (updated_at) WHERE status IN ('succeeded', 'failed', 'cancelled');`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** A plain Postgres name: letters, digits and _, not starting with a digit, 63 at most (NAMEDATALEN). */
export const isPlainPgName = (name: unknown): name is string => typeof name === 'string' && /^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(name);

/** A schema name as a quoted identifier; only plain names are accepted (it is spliced into SQL). */
export function quoteSchema(name: string): string {
  if (!isPlainPgName(name)) throw new Error(`invalid store schema name "${name}" (letters, digits and _)`);
  return `"${name}"`;
}

/** Creates or migrates `schema`; returns the version it is at. */
export async function migrate(pool: Pool, schema: string): Promise<number> {
  const s = quoteSchema(schema);
  // One lock per schema name: CREATE ... IF NOT EXISTS alone still races between nodes.
  return underLock(pool, ['pipewright.store', schema], async (c) => {
    await c.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await c.query(`CREATE TABLE IF NOT EXISTS ${s}.schema_version (version int PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const { rows } = await c.query<{ v: number | null }>(`SELECT max(version) AS v FROM ${s}.schema_version`);
    const at = rows[0]?.v ?? 0;
    for (let v = at + 1; v <= MIGRATIONS.length; v++) {
      await c.query(MIGRATIONS[v - 1]!(s));
      await c.query(`INSERT INTO ${s}.schema_version (version) VALUES ($1)`, [v]);
    }
    // A newer version is left alone: migrations only add, so an older node keeps working (rolling deploys).
    return Math.max(at, MIGRATIONS.length);
  });
}
