// Benchmark "sql" standalone: each server in its own process (started once, warmed up), interleaved
// autocannon rounds (the order alternates), answers compared first; reports requests/s, the servers'
// CPU per request, and the pipewright/hand-written ratio against the scenario's target.
// Run: npm run bench:sql (ROUNDS, SECONDS, CONNECTIONS, WARMUP, SIDES override the defaults).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import autocannon from 'autocannon';
import { scenario } from './sql-scenario.ts';
import { compileConfig } from '../compiler/project.ts';
import { summarise } from './profile-summary.ts';
import { generateModule } from '../compiler/codegen/module.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SECONDS = Number(process.env.SECONDS ?? 5);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 10);
type Side = 'pipewright' | 'handwritten' | 'hand-in-pw';

/** The config's fast-path module, generated here so the server process never loads the compiler. */
async function generated(): Promise<string> {
  const c = compileConfig('bench_sql.yaml', scenario.config);
  if (!c.ok || !c.ir) throw new Error(c.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`).join('\n'));
  const file = join(mkdtempSync(join(tmpdir(), 'pw-bench-sql-')), 'bench_sql.mts');
  writeFileSync(file, await generateModule(c.ir, { runtime: pathToFileURL(join(import.meta.dirname, '../runtime/index.ts')).href }));
  return file;
}
const moduleFile = await generated();
// PROFILE=1: every server runs under --cpu-prof; each one's self time (measured rounds only) is printed.
const profileDir = process.env.PROFILE ? mkdtempSync(join(tmpdir(), 'pw-bench-sql-prof-')) : undefined;
const profArgs = (side: Side) => (profileDir ? ['--cpu-prof', '--cpu-prof-dir', join(profileDir, side)] : []);
const started = performance.now();
let warmedMs = 0;

async function start(side: Side): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [...profArgs(side), '--import', 'tsx', 'bench/sql-server.ts', side, moduleFile], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim()));
    child.once('exit', (code) => reject(new Error(`${side} server exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

const stop = (child: ChildProcess) => new Promise<void>((r) => { child.once('exit', () => r()); child.kill('SIGTERM'); });

/** Status, content type and body text: the comparison is byte for byte, not after parsing. */
async function answer(url: string): Promise<{ status: number; type: string | null; body: string }> {
  const r = await fetch(url + scenario.request.path, { method: scenario.request.method });
  const a = { status: r.status, type: r.headers.get('content-type'), body: await r.text() };
  if (a.status !== 200) throw new Error(`${url}: status ${a.status}: ${a.body}`);
  return a;
}

/** CPU time (user + system) a process has used, in ms (Linux /proc; clock ticks of 10 ms). */
const cpuMs = (pid: number): number => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};

const WARMUP = Number(process.env.WARMUP ?? 5000);

/** Requests/s, and the server's CPU per request (robust when other work shares the machine). */
async function measure(side: Side, s: { url: string; child: ChildProcess }): Promise<{ rps: number; cpuUsPerReq: number }> {
  const c0 = cpuMs(s.child.pid!);
  const r = await autocannon({ url: s.url + scenario.request.path, method: scenario.request.method, connections: CONNECTIONS, duration: SECONDS });
  const cpu = cpuMs(s.child.pid!) - c0;
  if (r.non2xx || r.errors) throw new Error(`${side}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
  return { rps: r.requests.average, cpuUsPerReq: (cpu * 1000) / r.requests.total };
}

/** Each side's profile (its main thread's, the largest file), start-up and warm-up left out. */
function printProfiles(dir: string, skipMs: number): void {
  for (const side of readdirSync(dir)) {
    const files = readdirSync(join(dir, side)).map((f) => join(dir, side, f)).sort((a, b) => statSync(a).size - statSync(b).size);
    console.log(`\n== ${side}: ${files.at(-1)}\n${summarise(JSON.parse(readFileSync(files.at(-1)!, 'utf8')), 40, skipMs)}`);
  }
}

await scenario.setup();
try {
  // Both servers live through every round (a fresh process per round would measure its warm-up).
  const [pw, hw] = await Promise.all(((process.env.SIDES ?? 'pipewright,handwritten').split(',') as Side[]).map(start));
  const servers = { pipewright: pw!, handwritten: hw! } as Record<Side, { url: string; child: ChildProcess }>;
  try {
    // Same answer first: a faster wrong answer is no result.
    const [a, b] = await Promise.all([answer(pw!.url), answer(hw!.url)]);
    if (!isDeepStrictEqual(a, b)) throw new Error(`answers differ:\npipewright: ${JSON.stringify(a).slice(0, 300)}\nhandwritten: ${JSON.stringify(b).slice(0, 300)}`);
    const rows = JSON.parse(a!.body) as unknown;
    if (!Array.isArray(rows) || rows.length !== 100) throw new Error(`expected 100 rows, got ${a!.body.slice(0, 200)}`);

    // Warm-up: pools, prepared statements, JIT.
    for (const s of [pw!, hw!]) await autocannon({ url: s.url + scenario.request.path, method: scenario.request.method, connections: CONNECTIONS, amount: WARMUP });
    warmedMs = performance.now() - started;
    const results = { pipewright: [], handwritten: [] } as unknown as Record<Side, Array<{ rps: number; cpuUsPerReq: number }>>;
    for (let n = 0; n < ROUNDS; n++) {
      const order = (n % 2 ? ['handwritten', 'pipewright'] : ['pipewright', 'handwritten']) as Array<'pipewright' | 'handwritten'>;
      for (const side of order) results[side].push(await measure(side, servers[side]));
    }
    const best = (s: Side) => Math.max(...results[s].map((x) => x.rps));
    const leastCpu = (s: Side) => Math.min(...results[s].map((x) => x.cpuUsPerReq));
    const ratio = +(best('pipewright') / best('handwritten')).toFixed(3);
    const cpuRatio = +(leastCpu('handwritten') / leastCpu('pipewright')).toFixed(3);
    const report = {
      scenario: scenario.name, summary: scenario.summary, rounds: ROUNDS, seconds: SECONDS, connections: CONNECTIONS,
      reqPerSec: { pipewright: results.pipewright.map((x) => Math.round(x.rps)), handwritten: results.handwritten.map((x) => Math.round(x.rps)) },
      serverCpuUsPerReq: { pipewright: results.pipewright.map((x) => Math.round(x.cpuUsPerReq)), handwritten: results.handwritten.map((x) => Math.round(x.cpuUsPerReq)) },
      best: { pipewright: Math.round(best('pipewright')), handwritten: Math.round(best('handwritten')) },
      ratio, cpuRatio, target: scenario.target, met: ratio >= scenario.target,
      load: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
    };
    console.table({ ...Object.fromEntries(Object.entries(report.reqPerSec).map(([k, v]) => [`${k} req/s`, v])), ...Object.fromEntries(Object.entries(report.serverCpuUsPerReq).map(([k, v]) => [`${k} cpu µs/req`, v])) });
    console.log(`pipewright/hand-written throughput ${ratio}×, CPU efficiency ${cpuRatio}× (target >= ${scenario.target}×): ${report.met ? 'met' : 'NOT met'}; load average ${report.load}`);
    if (!profileDir) { // a profiled run is slower: not a result
      mkdirSync('bench/results', { recursive: true });
      writeFileSync('bench/results/sql.json', JSON.stringify(report, null, 2) + '\n');
    }
    if (!report.met) process.exitCode = 1;
  } finally {
    await Promise.all([stop(pw!.child), stop(hw!.child)]);
  }
  if (profileDir) printProfiles(profileDir, warmedMs);
} finally {
  await scenario.teardown();
}
