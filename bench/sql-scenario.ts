// Scenario "sql": an interface reading 100 rows from Postgres by a parameter, served by pipewright
// (fast path) against the same endpoint written by hand with fastify + pg. Target: pipewright's
// throughput at least 0.85× the hand-written one's, with byte-identical answers.
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';

const PG = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
// Set once by the runner's process and inherited by the server processes it spawns.
const schema = (process.env.BENCH_SQL_SCHEMA ??= `pw_bench_sql_${process.pid}_${Date.now().toString(36)}`);
const url = `${PG}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
export const QUERY = 'SELECT id, customer, item, qty, price, note FROM orders WHERE customer = $1 ORDER BY id';

export const scenario = {
  name: 'sql',
  summary: 'GET /orders?customer=N: 100 rows from Postgres by a bound parameter',
  /** pipewright throughput / hand-written throughput must reach this. */
  target: 0.85,
  config: `
databases:
  shop:
    url: a|secret::BENCH_SQL_URL|
    pool_size: 10
interfaces:
  orders:
    method: GET
    actions:
      - name: Orders
        query: ${QUERY}
        params: [a|params::customer|]
        output: http
`,
  /** Environment of the pipewright side (secrets by SERVICE__SECRET__<NAME>). */
  env: { SERVICE__SECRET__BENCH_SQL_URL: url },
  request: { method: 'GET' as const, path: '/orders?customer=42' },

  /** 100 customers × 100 orders in a schema of its own. */
  async setup(): Promise<void> {
    const c = new pg.Client({ connectionString: PG });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}`);
    await c.query(`CREATE TABLE ${schema}.orders (id int PRIMARY KEY, customer int NOT NULL, item text NOT NULL, qty int NOT NULL, price numeric(10,2) NOT NULL, note text)`);
    await c.query(`INSERT INTO ${schema}.orders SELECT n, n % 100, 'item ' || n, n % 7 + 1, (n % 1000) / 10.0, CASE WHEN n % 3 = 0 THEN NULL ELSE 'note ' || n END FROM generate_series(1, 10000) n`);
    await c.query(`CREATE INDEX ON ${schema}.orders (customer)`);
    await c.end();
  },
  async teardown(): Promise<void> {
    const c = new pg.Client({ connectionString: PG });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await c.end();
  },

  /** The same endpoint as one would write it by hand: a pg pool and a prepared statement. */
  handwritten(): FastifyInstance {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    const app = Fastify();
    app.get('/orders', async (req) => {
      const { customer } = req.query as { customer: string };
      return (await pool.query({ name: 'orders', text: QUERY, values: [customer] })).rows;
    });
    app.addHook('onClose', () => pool.end());
    return app;
  },
};

export default scenario;
