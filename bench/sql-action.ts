// Benchmark "sql-action": the database action alone against the hand-written query it replaces
// (pg Pool.query with a named statement), in one process with no HTTP server or executor around
// either, so the figure is the database path's own cost. Same rows required first (as JSON text);
// then interleaved rounds of N calls, 10 at a time, and the process's CPU per call.
// Run: npm run bench:sql-action (ROUNDS, CALLS override the defaults).
import { loadavg } from 'node:os';
import pg from 'pg';
import { scenario, QUERY } from './sql-scenario.ts';
import { database } from '../runtime/actions/database/action.ts';
import { closeDatabasePools } from '../runtime/actions/database/pools.ts';
import type { ActionContext } from '../runtime/actions/types.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 8);
const CALLS = Number(process.env.CALLS ?? 3000);
const CONCURRENCY = 10;
const url = scenario.env.SERVICE__SECRET__BENCH_SQL_URL;

await scenario.setup();
const pool = new pg.Pool({ connectionString: url, max: 10 });
// What the compiled config hands the action (see the generated module of bench/sql-scenario.ts).
const config = { query: QUERY, db: { pool_size: 10, url, label: 'shop' }, params: ['42'] };
const ctx = { signal: new AbortController().signal } as ActionContext;
const sides = {
  action: async () => {
    const o = await database(config, ctx);
    if (!o.ok) throw new Error(o.error);
    return JSON.stringify(o.data);
  },
  hand: async () => JSON.stringify((await pool.query({ name: 'orders', text: QUERY, values: ['42'] })).rows),
};

/** CPU µs per call of one side: CALLS calls, CONCURRENCY in flight. */
async function round(call: () => Promise<string>): Promise<number> {
  let left = CALLS;
  const c0 = process.cpuUsage();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => { while (left-- > 0) await call(); }));
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / CALLS;
}

try {
  if ((await sides.action()) !== (await sides.hand())) throw new Error('the action and the hand-written query return different rows');
  for (const call of Object.values(sides)) await round(call); // warm-up: connections, statements, JIT
  const us = { action: [] as number[], hand: [] as number[] };
  for (let n = 0; n < ROUNDS; n++) {
    for (const side of (n % 2 ? ['hand', 'action'] : ['action', 'hand']) as Array<keyof typeof sides>) us[side].push(await round(sides[side]));
  }
  const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!;
  console.log(`CPU µs per call, ${ROUNDS} rounds of ${CALLS}: action ${us.action.map(Math.round).join(' ')} | pg Pool.query ${us.hand.map(Math.round).join(' ')}`);
  console.log(`medians: action ${Math.round(median(us.action))}, Pool.query ${Math.round(median(us.hand))}: Pool.query/action ${(median(us.hand) / median(us.action)).toFixed(3)}×; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
} finally {
  await pool.end();
  await closeDatabasePools();
  await scenario.teardown();
}
