// `npm run bench:faults [-- --duration S] [--nodes N] [--own-postgres] [--soak MIN]`: the fault
// harness under load (bench/faults/run.ts). Prints the invariants and the figures as a table.
// Without --soak: 1 node and N nodes without faults (throughput), then N nodes with the fault plan.
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { memoryBack } from './faults/invariants.ts';
import type { Memory } from './faults/nodes.ts';
import { runFaults, type Fault, type FaultsReport } from './faults/run.ts';

const { values: a } = parseArgs({ options: { duration: { type: 'string' }, nodes: { type: 'string' }, 'own-postgres': { type: 'boolean' }, soak: { type: 'string' } } });
const durationMs = Number(a.duration ?? 60) * 1000;
const nodes = Number(a.nodes ?? 3);
const ownPostgres = a['own-postgres'] === true;
const log = (l: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${l}\n`);
const loads = () => `load average ${loadavg().map((x) => x.toFixed(2)).join(' / ')} (1/5/15 min)`;
console.log(`started ${new Date().toISOString()}, ${loads()}`);
process.on('exit', () => console.log(`\nended ${new Date().toISOString()}, ${loads()}`));

/** The plan, spread over the run: each fault once, with time to recover between them. */
export function faultPlan(durationMs: number): Fault[] {
  const at = (f: number) => Math.round(durationMs * f);
  return [
    { kind: 'kill', atMs: at(0.1), forMs: 2000, node: 1 },
    { kind: 'hang', atMs: at(0.25), forMs: 3000 },
    { kind: 'store', atMs: at(0.4), forMs: 10_000 },
    { kind: 'pause', atMs: at(0.6), forMs: 4000, node: 2 },
    { kind: 'broker', atMs: at(0.75), forMs: 3000 },
  ];
}

function table(title: string, r: FaultsReport): string {
  const f = r.figures;
  const lines = [`### ${title}`, '', `${r.nodes} node(s), ${r.durationMs / 1000} s of load: ${f.accepted} runs accepted, ${f.runsPerSec} runs/s; ${f.durableCompleted} durable runs completed; Postgres per durable run: ${f.pgRoundTripsPerDurableRun} round trips, ${f.pgBytesPerDurableRun} bytes`, '', '| kind | accepted | p50 ms | p99 ms |', '|---|---|---|---|'];
  for (const [k, v] of Object.entries(f.latency)) lines.push(`| ${k} | ${v.n} | ${v.p50} | ${v.p99} |`);
  if (r.windows.length) {
    lines.push('', '| fault | node | lasted ms | recovered ms after |', '|---|---|---|---|');
    for (const w of [...r.windows].sort((x, y) => x.from - y.from)) lines.push(`| ${w.kind} | ${w.node ?? '-'} | ${w.to - w.from} | ${w.recoveredMs ?? '-'} |`);
  }
  const i = r.invariants;
  lines.push('', `invariants ${i.ok ? 'held' : 'VIOLATED'}: lost ${i.lost.length} (failed by the rules after being accepted: ${i.failed.length}), duplicated ${i.duplicated.length} (+${i.duplicatedByFaults.length} cut in flight by a fault, +${i.duplicatedSameKey.length} retried after a timeout with the same Idempotency-Key), stuck ${i.stuck.length}, tick problems ${i.ticks.length}, ws missed ${i.wsMissed.length} (+${i.wsMissedInFaults} inside fault windows), MQTT publishes in the broker's restart gap ${i.mqttInBrokerGap}, MQTT runs lost with their node ${i.mqttLostAtKill.length}, crashes ${i.crashes.length}, memory not back ${i.memoryNotBack.length}`);
  for (const x of [...i.lost, ...i.duplicated, ...i.stuck, ...i.ticks, ...i.wsMissed, ...i.crashes, ...i.memoryNotBack].slice(0, 20)) lines.push(`- ${x}`);
  const kb = (m: Memory | undefined, k: keyof Memory) => m?.[k] ?? '-';
  lines.push('', '| node | heap KiB baseline → after GC | external KiB | grew / allowed KiB | RSS KiB | fds | active handles |', '|---|---|---|---|---|---|---|');
  for (const { node, baseline: b, after: a } of f.memory) {
    const m = b && a ? memoryBack(b, a) : undefined;
    lines.push(`| ${node} | ${kb(b, 'heapKb')} → ${kb(a, 'heapKb')} | ${kb(b, 'externalKb')} → ${kb(a, 'externalKb')} | ${m ? `${m.grewKb} / ${m.allowedKb}` : '-'} | ${kb(b, 'rssKb')} → ${kb(a, 'rssKb')} | ${kb(b, 'fds')} → ${kb(a, 'fds')} | ${kb(b, 'resources')} → ${kb(a, 'resources')} |`);
  }
  return lines.join('\n');
}

if (a.soak) {
  const minutes = Number(a.soak);
  const r = await runFaults({ nodes, durationMs: minutes * 60_000, faults: [], ownPostgres, sampleEveryMs: 60_000, log, drainMs: 30_000 });
  console.log(table(`soak, ${minutes} min`, r));
  process.exitCode = r.invariants.ok ? 0 : 1;
  for (const node of new Set(r.figures.samples.map((s) => s.node))) {
    const xs = r.figures.samples.filter((s) => s.node === node);
    const per = (y: (s: (typeof xs)[number]) => number) => slope(xs.map((s) => [s.at / 60_000, y(s)]));
    console.log(`${node}: per minute over ${xs.length} samples: heap after GC ${per((s) => (s.heapKb ?? 0) / 1024)} MiB, external ${per((s) => (s.externalKb ?? 0) / 1024)} MiB, RSS ${per((s) => s.rssKb / 1024)} MiB, fds ${per((s) => s.fds)}, active handles ${per((s) => s.resources ?? 0)}`);
    console.log(`${node}: samples (min: heap MiB / RSS MiB / fds): ${xs.map((s) => `${Math.round(s.at / 60_000)}: ${((s.heapKb ?? 0) / 1024).toFixed(1)}/${(s.rssKb / 1024).toFixed(0)}/${s.fds}`).join(', ')}`);
  }
} else {
  const one = await runFaults({ nodes: 1, durationMs: Math.min(durationMs, 30_000), faults: [], ownPostgres, log });
  console.log(table('1 node, no faults', one));
  const many = await runFaults({ nodes, durationMs: Math.min(durationMs, 30_000), faults: [], ownPostgres, log });
  console.log(`\n${table(`${nodes} nodes, no faults`, many)}`);
  const faulted = await runFaults({ nodes, durationMs, faults: faultPlan(durationMs), ownPostgres, log, drainMs: 40_000 });
  console.log(`\n${table(`${nodes} nodes, faults`, faulted)}`);
  // Every run's invariants hold, not only the faulted one's: a run without faults has no excuse.
  process.exitCode = [one, many, faulted].every((r) => r.invariants.ok) ? 0 : 1;
}

function slope(points: Array<[number, number]>): string {
  if (points.length < 2) return 'n/a';
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const num = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const den = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return den ? (num / den).toFixed(3) : 'n/a';
}
