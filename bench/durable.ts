// Benchmark: suspend 10,000 runs into Postgres (a delay past SERVICE__MAX_DELAY_SECS), then let the
// resumer continue them all; report both rates and the heap before, with all suspended, and after.
// The heap must not grow with the number of suspended runs: they live in the store.
// Run: npm run bench:durable   (RUNS=10000 by default; needs the local Postgres)
import { mkdirSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import { executeInterface } from '../runtime/exec/run.ts';
import { startResumer } from '../runtime/durable/resumer.ts';
import { processEnvironment } from '../runtime/environment.ts';
import { systemClock, type Services } from '../runtime/services.ts';
import { PostgresStore } from '../runtime/store/postgres.ts';
import { planOf } from '../test/support/plans.ts';

const RUNS = Number(process.env.RUNS ?? 10_000);
const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `pw_bench_${process.pid}`;
const store = new PostgresStore({ url, schema });
await store.init();
const plan = await planOf('bench-durable.yaml', 'compiled', `
interfaces:
  job:
    method: POST
    actions:
      - name: Order
        input: { id: a|body::id|, items: [1, 2, 3] }
      - name: Wait
        delay: 200ms
      - name: Done
        input: { id: a|Order::id|, done: true }
        output: http
`);
const i = plan.interfaces[0]!;
const env = processEnvironment({});
const services: Services = { clock: systemClock, store, maxDelayMs: 100 };
const heap = () => { (globalThis as { gc?: () => void }).gc?.(); return process.memoryUsage().heapUsed / 1048576; };

const heapStart = heap();
let t0 = performance.now();
let next = 0;
await Promise.all(Array.from({ length: 32 }, async () => {
  while (next < RUNS) {
    const id = next++;
    const r = await executeInterface(plan, i, { method: 'POST', path: '/job', params: {}, headers: {}, body: { id }, rawBody: '' }, { trigger: 'test', env, services });
    if (r.response.status !== 202) throw new Error(`run ${id} answered ${r.response.status}`);
  }
}));
const suspendSecs = (performance.now() - t0) / 1000;
const heapSuspended = heap();
const suspended = await store.countSuspended();

t0 = performance.now();
const resumer = startResumer({ plans: [plan], store, env, services, node: 'bench', pollMs: 20, batch: 200 });
while ((await store.countSuspended()) > 0) await new Promise((r) => setTimeout(r, 100));
await resumer.stop();
// Every run is due by now (200 ms delay, suspending them all takes longer): this is pure resume work.
const resumeSecs = (performance.now() - t0) / 1000;
const heapAfter = heap();

const report = {
  runs: RUNS,
  suspendPerSec: Math.round(RUNS / suspendSecs),
  resumePerSec: Math.round(RUNS / resumeSecs),
  suspendedAtPeak: suspended,
  heapMiB: { start: +heapStart.toFixed(1), allSuspended: +heapSuspended.toFixed(1), afterResume: +heapAfter.toFixed(1) },
  heapGrowthPerThousandSuspendedKiB: +(((heapSuspended - heapStart) * 1024) / (RUNS / 1000)).toFixed(1),
};
console.log(JSON.stringify(report, null, 2));
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/durable.json', JSON.stringify(report, null, 2) + '\n');
await store.close();
const c = new pg.Client({ connectionString: url });
await c.connect();
await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
await c.end();
