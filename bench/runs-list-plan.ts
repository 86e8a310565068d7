// The runs list's query plans at a million rows (docs/decisions.md, "Runs API"): a scratch schema
// migrated like a real one, filled with 1,000,000 generated runs (40 interfaces of 8 configs, four
// triggers, mostly finished, a few hundred waiting), then EXPLAIN (ANALYZE, BUFFERS) of the exact
// statements the store runs (listRunsSql), first page and a deep cursor page, with each filter.
// Usage: node --import tsx bench/runs-list-plan.ts [postgres-url]; the schema is dropped after.
import pg from 'pg';
import { migrate } from '../runtime/store/pg-schema.ts';
import { listRunsSql } from '../runtime/store/postgres.ts';
import type { RunQuery } from '../runtime/store-types.ts';

const url = process.argv[2] ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `pw_runs_plan_${process.pid}`;
const ROWS = 1_000_000;
const pool = new pg.Pool({ connectionString: url, max: 2 });

try {
  await migrate(pool, schema);
  const t0 = Date.now();
  // One run a second going back ~11.6 days; status by position: 0.03% suspended, 20% failed.
  await pool.query(`
    INSERT INTO "${schema}".runs (id, config, iface, status, wake_at, token, state, updated_at, trigger, started_at, http_code)
    SELECT md5(i::text)::uuid::text, 'config' || (i % 8), 'iface' || (i % 40),
      CASE WHEN i % 3000 = 0 THEN 'suspended' WHEN i % 5 = 0 THEN 'failed' ELSE 'succeeded' END,
      CASE WHEN i % 3000 = 0 THEN now() + interval '1 hour' END, CASE WHEN i % 3000 = 0 THEN 'tok-' || i END,
      json_build_object('id', md5(i::text)::uuid::text, 'wake', CASE WHEN i % 3000 = 0 THEN json_build_object('reason', 'callback', 'action', 'Approval') END),
      now() - (i || ' seconds')::interval + interval '200 milliseconds',
      (ARRAY['http', 'http', 'http', 'schedule', 'mqtt'])[1 + i % 5 + 0 * (i % 7)],
      now() - (i || ' seconds')::interval,
      CASE WHEN i % 3000 = 0 THEN NULL WHEN i % 5 = 0 THEN 502 ELSE 200 END
    FROM generate_series(1, ${ROWS}) i`);
  await pool.query(`ANALYZE "${schema}".runs`);
  console.log(`# ${ROWS} rows generated in ${Date.now() - t0} ms; table ${(await pool.query(`SELECT pg_size_pretty(pg_total_relation_size('"${schema}".runs')) AS s`)).rows[0].s}\n`);

  // A cursor half-way down the table: the 500,000th newest run.
  const mid = (await pool.query(`SELECT started_at, id FROM "${schema}".runs ORDER BY started_at DESC, id COLLATE "C" DESC OFFSET 500000 LIMIT 1`)).rows[0];
  const before = { startedAt: (mid.started_at as Date).toISOString(), id: mid.id as string };
  const cases: Array<[string, RunQuery]> = [
    ['first page, no filter', { limit: 51 }],
    ['page at 500,000 (cursor), no filter', { limit: 51, before }],
    ['config and interface', { config: 'config3', iface: 'iface11', limit: 51 }],
    ['config and interface, cursor', { config: 'config3', iface: 'iface11', limit: 51, before }],
    ['status=failed', { status: 'failed', limit: 51 }],
    ['status=suspended (rare)', { status: 'suspended', limit: 51 }],
    ['interface alone (1 in 40)', { iface: 'iface7', limit: 51 }],
    ['config alone (1 in 8)', { config: 'config5', limit: 51 }],
    ['interface, status and cursor', { iface: 'iface10', status: 'failed', limit: 51, before }],
    ['trigger=schedule', { trigger: 'schedule', limit: 51 }],
    ['since/until: one hour, a day back', { since: new Date(Date.now() - 25 * 3_600_000).toISOString(), until: new Date(Date.now() - 24 * 3_600_000).toISOString(), limit: 51 }],
    ['no match: trigger=agent', { trigger: 'agent', limit: 51 }],
  ];
  for (const [name, q] of cases) {
    const { text, values } = listRunsSql(`"${schema}"`, q);
    const plan = await pool.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${text}`, values);
    console.log(`## ${name}\n${plan.rows.map((r) => r['QUERY PLAN']).join('\n')}\n`);
  }
  // The retention's prune (every minute): the statement pruneFinished runs, rolled back. In steady
  // state the table holds the retention's window and a prune finds the last minute's expired runs:
  // here the oldest 1,000 seconds' (the rows are one a second).
  const oldest = (await pool.query(`SELECT min(updated_at) AS t FROM "${schema}".runs`)).rows[0].t as Date;
  await pool.query('BEGIN');
  const prune = await pool.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) DELETE FROM "${schema}".runs WHERE status IN ('succeeded', 'failed', 'cancelled') AND updated_at < $1`, [new Date(oldest.getTime() + 1_000_000)]);
  await pool.query('ROLLBACK');
  console.log(`## prune: the oldest 1,000 finished runs\n${prune.rows.map((r) => r['QUERY PLAN']).join('\n')}\n`);
} finally {
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
}
