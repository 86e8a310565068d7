// Benchmark: a lookup over 1,000 items against a local upstream, fast path and interpreter side by
// side in one run (each in its own process, the same upstream), reported as throughput, peak memory
// and their ratios. Run: npm run bench:lookup
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const server = createServer((req, res) => {
  const id = Number((req.url ?? '').split('/')[2]);
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ id, name: `member ${id}`, tier: id % 2 ? 'gold' : 'silver', bio: 'x'.repeat(200) }));
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const runs = process.env.RUNS ?? '10';

type Side = { mode: string; itemsPerSec: number; peakRssMiB: number; rssGrowthMiB: number };
// Async: the upstream lives in this process, so the parent must keep serving while a side runs.
const side = async (mode: string): Promise<Side> => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'bench/lookup-worker.ts', mode, url, runs], { encoding: 'utf8' });
  return JSON.parse(stdout.trim().split('\n').pop()!) as Side;
};
// Interleaved rounds even out machine noise; each side reports its best round.
const results = { compiled: [] as Side[], interpreted: [] as Side[] };
// Alternate which side goes first, so neither always meets a cold upstream.
const orders: Array<Array<'compiled' | 'interpreted'>> = [['compiled', 'interpreted'], ['interpreted', 'compiled']];
for (let n = 0; n < 4; n++) for (const m of orders[n % 2]!) results[m].push(await side(m));
const best = (m: 'compiled' | 'interpreted') => results[m].reduce((a, b) => (a.itemsPerSec > b.itemsPerSec ? a : b));
const fast = best('compiled');
const interp = best('interpreted');
const report = {
  items: 1000, runs: Number(runs),
  fast: { itemsPerSec: Math.round(fast.itemsPerSec), peakRssMiB: Math.round(fast.peakRssMiB), rssGrowthMiB: Math.round(fast.rssGrowthMiB) },
  interpreter: { itemsPerSec: Math.round(interp.itemsPerSec), peakRssMiB: Math.round(interp.peakRssMiB), rssGrowthMiB: Math.round(interp.rssGrowthMiB) },
  throughputRatio: +(fast.itemsPerSec / interp.itemsPerSec).toFixed(2),
  memoryRatio: +(fast.peakRssMiB / interp.peakRssMiB).toFixed(2),
};
console.table({ fast: report.fast, interpreter: report.interpreter });
console.log(`fast/interpreter throughput ${report.throughputRatio}×, peak memory ${report.memoryRatio}×`);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/lookup.json', JSON.stringify(report, null, 2) + '\n');
server.close();
