// `npm run bench`: every scenario under bench/scenarios/ served four ways, each in its own process
// (fast path via `pipewright serve`, interpreter via `serve --no-fastpath`, the compiled bundle, and
// the scenario's hand-written fastify + undici server), driven with autocannon in interleaved rounds
// after every answer was checked identical to the hand-written one; then cold start, bundle size
// and CLI wall times. Prints a ratio table and writes bench/results/bench.{json,md} (a --only run: bench-partial.{json,md}).
// Each way is served by --processes N processes (default 3), each loaded in every round: JIT and GC
// outcomes differ from process to process (the same transform bundle measured 520-710 µs a request in
// processes side by side), so one process per way made a ratio a draw; medians over all processes'
// rounds settle it.
// Options: --seconds N (per process per round, default 2) --rounds N (3) --processes N (3) --connections N (20)
//          --warm N (seconds of load per process before the rounds, default 3)
//          --only a,b (scenario names or a family's, e.g. `target-forms`; and `startup` for the start-up and CLI measurements; without
//          `startup` in the list they are skipped; `sql` and `fanout` are the two scenarios with harnesses
//          of their own, bench/sql.ts and bench/fanout.ts, run after the others) --no-static (skip the
//          start-up and CLI measurements)
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Scenario, ServerName } from './scenario.ts';
import { cpuUs, peakRssMb, startServer, stopServer, type Server } from './proc.ts';
import { buildDir, cli } from './paths.ts';
import { answerOf, loadRound, type Round } from './load.ts';
import { measureStatic, type StaticResults } from './static.ts';
import { allScenarios, compiledScenario, handWrittenScript, startUpstream } from './servers.ts';
import { writeReport, type ScenarioResult } from './report.ts';
import { OWN_HARNESS, ownLines, runOwnHarness } from './own-harness.ts';
import { distIsCurrent, ensureFreshDist } from './dist-check.ts';


const { values: o } = parseArgs({ options: {
  seconds: { type: 'string', default: '2' }, rounds: { type: 'string', default: '3' }, processes: { type: 'string', default: '3' }, connections: { type: 'string', default: '20' },
  warm: { type: 'string', default: '3' },
  only: { type: 'string' }, 'no-static': { type: 'boolean' },
} });
const SECONDS = Number(o.seconds), ROUNDS = Number(o.rounds), PROCESSES = Number(o.processes), CONNECTIONS = Number(o.connections);
const WARM_SECONDS = Number(o.warm);

async function scenarios(): Promise<Scenario[]> {
  const out = await allScenarios();
  return only ? out.filter((s) => only.includes(s.name) || (s.family !== undefined && only.includes(s.family))) : out;
}

const only = o.only?.split(',');

async function startAll(s: Scenario, upstream: string): Promise<Server[]> {
  const { config, bundle } = await compiledScenario(s, join(buildDir, s.name));
  const hand = await handWrittenScript(s);
  const env = { SERVICE__VAR__UPSTREAM: upstream };
  const servers: Server[] = [];
  // One at a time: start-up is CPU-bound and the machine may be small. Server names are the ways;
  // a way's processes share its name.
  for (let k = 0; k < PROCESSES; k++) {
    servers.push(await startServer('fast', process.execPath, [cli, 'serve', config, '--port', '0'], { env }));
    servers.push(await startServer('interpreter', process.execPath, [cli, 'serve', config, '--port', '0', '--no-fastpath'], { env }));
    servers.push(await startServer('bundle', process.execPath, [bundle, '--port', '0'], { env }));
    servers.push(await startServer('hand_written', process.execPath, [hand, upstream]));
  }
  return servers;
}

async function runScenario(s: Scenario, upstream: string): Promise<ScenarioResult> {
  const servers = await startAll(s, upstream);
  const connections = s.connections ?? CONNECTIONS;
  try {
    const answers = await Promise.all(servers.map((x) => answerOf(x.url, s.request)));
    const ref = answers[servers.findIndex((x) => x.name === 'hand_written')]!;
    const mismatches = servers.flatMap((x, i) => {
      const a = answers[i]!;
      return a.status === ref.status && a.type === ref.type && a.body === ref.body ? [] : [`${x.name}: ${a.status} ${a.type} ${a.body.slice(0, 200)}`];
    });
    if (ref.status !== 200) mismatches.push(`hand_written answered ${ref.status}`);
    const rounds: Record<string, Round[]> = {};
    if (mismatches.length === 0) {
      // Warm-up: 3 s of load each. After 1 s, our servers' CPU a request still fell round after round
      // (passthrough: 228 → 133 µs over the next 6 s of load; the hand-written server's was flat).
      for (const x of servers) await loadRound(x.url, s.request, { connections, seconds: WARM_SECONDS });
      // Interleaved: a change in machine load hits every server alike.
      for (let r = 0; r < ROUNDS; r++) {
        for (const x of servers) {
          const cpu0 = cpuUs(x.child.pid);
          const r = await loadRound(x.url, s.request, { connections, seconds: SECONDS });
          (rounds[x.name] ??= []).push({ ...r, cpuUsPerReq: r.requests ? Math.round((cpuUs(x.child.pid) - cpu0) / r.requests) : NaN });
        }
      }
    }
    // A way's peak RSS: the median of its processes' peaks.
    const rss = Object.fromEntries([...new Set(servers.map((x) => x.name))].map((w) => [w, medianOf(servers.filter((x) => x.name === w).map((x) => peakRssMb(x.child.pid)))]));
    return { scenario: s, identical: mismatches.length === 0, mismatches, rounds: rounds as Record<ServerName, Round[]>, peakRssMb: rss as Record<ServerName, number> };
  } finally {
    for (const x of servers) await stopServer(x);
  }
}

const medianOf = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  mkdirSync(buildDir, { recursive: true });
  ensureFreshDist();
  const results: ScenarioResult[] = [];
  const chosen = await scenarios();
  if (chosen.length) {
    const upstream = await startUpstream();
    try {
      for (const s of chosen) {
        process.stderr.write(`bench: ${s.name}\n`);
        results.push(await runScenario(s, upstream.url));
      }
    } finally {
      await stopServer(upstream);
    }
  }
  const stat: StaticResults | undefined = o['no-static'] || (only && !only.includes('startup')) ? undefined : await measureStatic();
  const own: string[] = [];
  for (const name of OWN_HARNESS.filter((n) => !only || only.includes(n))) {
    process.stderr.write(`bench: ${name}\n`);
    own.push(...ownLines(name, await runOwnHarness(name)));
  }
  writeReport(results, stat, { seconds: SECONDS, rounds: ROUNDS, processes: PROCESSES, connections: CONNECTIONS, only }, own);
  if (!distIsCurrent()) process.stderr.write('bench: WARNING a source under runtime/, compiler/ or cli/ changed during the run: servers and CLI started after it ran the TypeScript through tsx (slower CLI, larger fast-way RSS); run again\n');
}

await main();
