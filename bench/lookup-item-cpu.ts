// `node --import tsx bench/lookup-item-cpu.ts [runs]`: CPU per lookup item in one process, the
// executor's lookup (fast-path plan of bench/scenarios/lookup-fanout.ts) against the hand-written
// undici loop, interleaved, over the benchmark upstream (its own process). No HTTP server in
// between, so the figure is the lookup's own cost per item.
import { join } from 'node:path';
import { Pool } from 'undici';
import { executeInterface } from '../runtime/exec/run.ts';
import { systemClock } from '../runtime/services.ts';
import { processEnvironment } from '../runtime/environment.ts';
import { closeHttpPools } from '../runtime/actions/http/pool.ts';
import { planOf } from '../test/support/plans.ts';
import { scenario } from './scenarios/lookup-fanout.ts';
import { startServer, stopServer } from './proc.ts';

const runs = Number(process.argv[2] ?? 30);
const upstream = await startServer('upstream', process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'upstream.ts')]);
const plan = await planOf('lookup_fanout.yaml', (process.env.MODE as 'compiled' | 'interpreted') ?? 'compiled', scenario.config);
const i = plan.interfaces[0]!;
const body = JSON.parse(scenario.request.body!) as { ids: number[] };
const env = processEnvironment({ SERVICE__VAR__UPSTREAM: upstream.url });
const pool = new Pool(upstream.url);
const ways = {
  fast: async () => {
    const r = await executeInterface(plan, i, { method: 'POST', path: '/fanout', params: {}, headers: {}, body, rawBody: '' }, { trigger: 'test', env, services: { clock: systemClock } });
    return (r.response.body as unknown[]).length;
  },
  hand: async () => {
    const ids = body.ids, out: unknown[] = new Array(ids.length);
    let next = 0;
    const worker = async () => {
      while (next < ids.length) {
        const k = next++;
        const res = await pool.request({ method: 'GET', path: `/item/${encodeURIComponent(String(ids[k]))}` });
        out[k] = await res.body.json();
      }
    };
    await Promise.all(Array.from({ length: 10 }, worker));
    return out.length;
  },
};
const only = process.env.WAYS?.split(",");
for (const k of Object.keys(ways)) if (only && !only.includes(k)) delete (ways as Record<string, unknown>)[k];
const per: Record<string, number[]> = Object.fromEntries(Object.keys(ways).map((k) => [k, []]));
for (const w of Object.values(ways)) for (let n = 0; n < 5; n++) await w(); // warm-up
for (let round = 0; round < 9; round++) {
  for (const [name, w] of Object.entries(ways)) {
    const c0 = process.cpuUsage();
    for (let n = 0; n < runs; n++) if ((await w()) !== body.ids.length) throw new Error('bad answer');
    const c = process.cpuUsage(c0);
    per[name]!.push((c.user + c.system) / (runs * body.ids.length));
  }
}
// The least round: interference from other processes only ever adds CPU.
const median = (v: number[]) => Math.min(...v);
for (const [name, v] of Object.entries(per)) console.log(`${name}: ${median(v).toFixed(1)} µs CPU/item (least of 9) (rounds ${v.map((x) => x.toFixed(1)).join(', ')})`);
if (per.hand && per.fast) console.log(`hand/fast ${(median(per.hand!) / median(per.fast!)).toFixed(2)}×`);
await pool.close();
await closeHttpPools();
await stopServer(upstream);
