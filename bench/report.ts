// The benchmark's output: a table of medians and ratios (printed, and written as Markdown and JSON
// under bench/results/) with each target marked met or missed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import type { Scenario, ServerName } from './scenario.ts';
import type { Round } from './load.ts';
import type { StaticResults } from './static.ts';
import { benchDir } from './paths.ts';

export interface ScenarioResult {
  scenario: Scenario;
  identical: boolean;
  mismatches: string[];
  rounds: Record<ServerName, Round[]>;
  peakRssMb: Record<ServerName, number>;
}

const SERVERS: ServerName[] = ['fast', 'interpreter', 'bundle', 'hand_written'];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const x2 = (n: number) => (Number.isFinite(n) ? `${n.toFixed(2)}×` : '–');
const mark = (ok: boolean) => (ok ? 'met' : 'MISSED');

export function writeReport(results: ScenarioResult[], stat: StaticResults | undefined, o: { seconds: number; rounds: number; processes: number; connections: number; only?: string[] }, own: string[] = []): void {
  const machine = `${cpus()[0]?.model ?? 'unknown cpu'} × ${cpus().length}, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}, load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`;
  const lines = [
    `Benchmark ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC — ${machine}`,
    `autocannon, ${o.connections} connections, ${o.seconds} s × ${o.rounds} interleaved rounds on each of ${o.processes} processes per way, medians over all of a way's rounds (peak RSS: the median process).`,
    '',
    '| scenario | fast req/s | interpreter | bundle | hand-written | fast/hand | bundle/hand | fast/interp | CPU µs/req (f/i/b/h) | CPU hand/fast | CPU interp/fast | peak RSS MB (f/i/b/h) | targets |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  const json: Record<string, unknown> = {};
  for (const r of results) {
    const rps = Object.fromEntries(SERVERS.map((s) => [s, Math.round(median((r.rounds[s] ?? []).map((x) => x.rps)))])) as Record<ServerName, number>;
    // CPU per request of each server process: a ratio of these holds on a loaded machine, where
    // req/s mostly measures how much of the cores each process was given.
    const cpu = Object.fromEntries(SERVERS.map((s) => [s, Math.round(median((r.rounds[s] ?? []).map((x) => x.cpuUsPerReq ?? NaN)))])) as Record<ServerName, number>;
    const targets = r.scenario.targets.map((t) => {
      const v = rps[t.of] / rps[t.over];
      return `${t.of}/${t.over} ${x2(v)} ≥ ${t.min} ${mark(v >= t.min)}`;
    });
    const errors = SERVERS.flatMap((s) => (r.rounds[s] ?? []).some((x) => x.errors || x.non2xx) ? [`${s} had errors`] : []);
    if (r.scenario.name === 'passthrough') {
      const v = r.peakRssMb.fast / r.peakRssMb.hand_written;
      targets.push(`RSS fast/hand ${x2(v)} ≤ 1.3 ${mark(v <= 1.3)}`);
    }
    const status = r.identical ? [...targets, ...errors].join('; ') : `ANSWERS DIFFER: ${r.mismatches.join(' | ')}`;
    lines.push(`| ${r.scenario.name} | ${rps.fast} | ${rps.interpreter} | ${rps.bundle} | ${rps.hand_written} | ${x2(rps.fast / rps.hand_written)} | ${x2(rps.bundle / rps.hand_written)} | ${x2(rps.fast / rps.interpreter)} | ${SERVERS.map((s) => cpu[s]).join(' / ')} | ${x2(cpu.hand_written / cpu.fast)} | ${x2(cpu.interpreter / cpu.fast)} | ${SERVERS.map((s) => r.peakRssMb[s]).join(' / ')} | ${status} |`);
    json[r.scenario.name] = { summary: r.scenario.summary, identical: r.identical, mismatches: r.mismatches, rps, cpuUsPerReq: cpu, peakRssMb: r.peakRssMb, rounds: r.rounds };
  }
  if (stat) {
    const cold = stat.coldStart50Ms / stat.nodeBareMs;
    lines.push(
      '',
      '| start-up and CLI | measured | target |',
      '|---|---|---|',
      `| cold start, bundle of 50 interfaces | ${stat.coldStart50Ms} ms (${x2(cold)} bare \`node -e 0\` = ${stat.nodeBareMs} ms) | < 150 ms ${mark(stat.coldStart50Ms < 150)} |`,
      `| CPU to the ready line, bundle of 50 interfaces | ${stat.coldStart50CpuMs} ms (${x2(stat.coldStart50CpuMs / stat.nodeBareCpuMs)} bare node = ${stat.nodeBareCpuMs} ms) | (holds under load) |`,
      `| bundle size, 50 interfaces, no heavy transforms | ${(stat.bundle50Bytes / 2 ** 20).toFixed(2)} MB | < 1.5 MB ${mark(stat.bundle50Bytes < 1.5 * 2 ** 20)} |`,
      `| \`pipewright compile\`, 200 interfaces (with bundle) | ${stat.compile200Ms} ms | < 2000 ms ${mark(stat.compile200Ms < 2000)} |`,
      `| \`pipewright check\` of the quickstart | ${stat.checkQuickstartMs} ms | < 400 ms ${mark(stat.checkQuickstartMs < 400)} |`,
    );
    json.static = stat;
  }
  lines.push(...own);
  const text = lines.join('\n') + '\n';
  process.stdout.write(text);
  const dir = join(benchDir, 'results');
  mkdirSync(dir, { recursive: true });
  // A run limited by --only measures some scenarios: it goes to bench-partial.*, never over the full run's bench.*.
  const base = o.only ? 'bench-partial' : 'bench';
  writeFileSync(join(dir, `${base}.md`), text);
  writeFileSync(join(dir, `${base}.json`), JSON.stringify({ at: new Date().toISOString(), machine, options: o, results: json }, null, 2) + '\n');
}
