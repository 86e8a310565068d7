// Benchmark "sql" standalone: each server in its own process, interleaved autocannon rounds (the
// order alternates), answers compared first; reports requests/s and the pipewright/hand-written
// ratio against the scenario's target. Run: npm run bench:sql
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import autocannon from 'autocannon';
import { scenario } from './scenarios/sql.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SECONDS = Number(process.env.SECONDS ?? 5);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 10);
type Side = 'pipewright' | 'handwritten';

async function start(side: Side): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/sql-server.ts', side], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim()));
    child.once('exit', (code) => reject(new Error(`${side} server exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

const stop = (child: ChildProcess) => new Promise<void>((r) => { child.once('exit', () => r()); child.kill('SIGTERM'); });

async function answer(url: string): Promise<unknown> {
  const r = await fetch(url + scenario.request.path, { method: scenario.request.method });
  if (r.status !== 200) throw new Error(`${url}: status ${r.status}: ${await r.text()}`);
  return r.json();
}

async function measure(side: Side): Promise<number> {
  const { url, child } = await start(side);
  try {
    const target = { url: url + scenario.request.path, method: scenario.request.method, connections: CONNECTIONS };
    await autocannon({ ...target, duration: 1 }); // warm-up: pools, prepared statements, JIT
    const r = await autocannon({ ...target, duration: SECONDS });
    if (r.non2xx || r.errors) throw new Error(`${side}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
    return r.requests.average;
  } finally {
    await stop(child);
  }
}

await scenario.setup();
try {
  // Same answer first: a faster wrong answer is no result.
  const sides = await Promise.all((['pipewright', 'handwritten'] as const).map(start));
  const [a, b] = await Promise.all(sides.map((s) => answer(s.url))).finally(() => Promise.all(sides.map((s) => stop(s.child))));
  if (!isDeepStrictEqual(a, b)) throw new Error(`answers differ:\npipewright: ${JSON.stringify(a).slice(0, 300)}\nhandwritten: ${JSON.stringify(b).slice(0, 300)}`);
  if (!Array.isArray(a) || a.length !== 100) throw new Error(`expected 100 rows, got ${JSON.stringify(a).slice(0, 200)}`);

  const results: Record<Side, number[]> = { pipewright: [], handwritten: [] };
  for (let n = 0; n < ROUNDS; n++) {
    const order: Side[] = n % 2 ? ['handwritten', 'pipewright'] : ['pipewright', 'handwritten'];
    for (const side of order) results[side].push(await measure(side));
  }
  const best = (s: Side) => Math.max(...results[s]);
  const ratio = +(best('pipewright') / best('handwritten')).toFixed(3);
  const report = { scenario: scenario.name, summary: scenario.summary, rounds: ROUNDS, seconds: SECONDS, connections: CONNECTIONS, reqPerSec: { pipewright: results.pipewright.map(Math.round), handwritten: results.handwritten.map(Math.round) }, best: { pipewright: Math.round(best('pipewright')), handwritten: Math.round(best('handwritten')) }, ratio, target: scenario.target, met: ratio >= scenario.target };
  console.table(report.reqPerSec);
  console.log(`pipewright/hand-written ${ratio}× (target >= ${scenario.target}×): ${report.met ? 'met' : 'NOT met'}`);
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/sql.json', JSON.stringify(report, null, 2) + '\n');
  if (!report.met) process.exitCode = 1;
} finally {
  await scenario.teardown();
}
