// The two scenarios of `npm run bench` with harnesses of their own: "sql" (bench/sql.ts: Postgres rows
// through the database action against fastify + pg) and "fanout" (bench/fanout.ts: 1,000 WebSocket
// subscribers). Each runs as a child process, writes bench/results/<name>.json, and gets a table here.
import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { benchDir } from './paths.ts';

export const OWN_HARNESS = ['sql', 'fanout'] as const;
export type OwnName = (typeof OWN_HARNESS)[number];

/** Runs bench/<name>.ts; the results file it wrote, or undefined when it wrote none (its output says
 *  why). Its exit status is not read: bench/sql.ts exits 1 when its target is missed. */
export async function runOwnHarness(name: OwnName): Promise<Record<string, unknown> | undefined> {
  const file = join(benchDir, 'results', `${name}.json`);
  const started = Date.now();
  await new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(benchDir, `${name}.ts`)], { stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('exit', done);
  });
  let written: number;
  try { written = statSync(file).mtimeMs; } catch { return undefined; }
  return written >= started - 1000 ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : undefined;
}

const mark = (met: unknown) => (met ? 'met' : 'MISSED');

/** Markdown lines for the report. */
export function ownLines(name: OwnName, r: Record<string, unknown> | undefined): string[] {
  if (!r) return ['', `${name}: the benchmark failed (see its output above)`];
  if (name === 'sql') {
    const best = r.best as { pipewright: number; handwritten: number };
    const cpu = r.serverCpuUsPerReq as { pipewright: number[]; handwritten: number[] };
    return ['', '| sql (100 rows by a parameter) | pipewright req/s | hand-written | ratio | CPU µs/req (p/h) | CPU hand/pipewright | target |', '|---|---|---|---|---|---|---|',
      `| database action vs fastify + pg | ${best.pipewright} | ${best.handwritten} | ${r.ratio}× | ${cpu.pipewright.join(', ')} / ${cpu.handwritten.join(', ')} | ${r.cpuRatio}× | ≥ ${r.target} ${mark(r.met)} |`];
  }
  type Phase = { p50Ms: number; p99Ms: number; publishes: number; deliveredToAll: number };
  const fixed = r.fixedRate as Phase & { ratePerSec: number };
  const sat = r.saturation as { deliveredPublishesPerSec: number };
  const mem = r.memory as { perSocketKiB: number };
  return ['', `| fanout (${r.sockets} sockets) | p50 | p99 | delivered to all | saturation | memory per socket | target |`, '|---|---|---|---|---|---|---|',
    `| ${fixed.ratePerSec} publishes/s${typeof r.priority === 'string' && r.priority !== 'normal' ? ' (real-time priority)' : ''} | ${fixed.p50Ms} ms | ${fixed.p99Ms} ms | ${fixed.deliveredToAll}/${fixed.publishes} | ${sat.deliveredPublishesPerSec} publishes/s | ${mem.perSocketKiB} KiB | ${r.target} ${mark(r.met)} |`];
}
