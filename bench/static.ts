// Start-up and CLI measurements: cold start of a 50-interface bundle against bare `node -e 0` (wall
// time, and CPU time to the ready line against a bare node printing one),
// bundle sizes, `pipewright compile` of 200 interfaces and `pipewright check` of the quickstart.
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { manyInterfaces } from './generated-config.ts';
import { buildDir, cli, root } from './paths.ts';
import { cpuUs, startServer, stopServer, timeCommand } from './proc.ts';

export interface StaticResults {
  nodeBareMs: number;
  coldStart50Ms: number;
  /** CPU time (user + system) to the ready line: what start-up costs, which holds on a loaded machine. */
  nodeBareCpuMs: number;
  coldStart50CpuMs: number;
  bundle50Bytes: number;
  compile200Ms: number;
  checkQuickstartMs: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function repeat(n: number, f: () => Promise<number>): Promise<number> {
  const xs: number[] = [];
  for (let i = 0; i < n; i++) xs.push(await f());
  return Math.round(median(xs));
}

export async function measureStatic(): Promise<StaticResults> {
  const dir = join(buildDir, 'static');
  mkdirSync(dir, { recursive: true });
  const c50 = join(dir, 'many50.yaml'), c200 = join(dir, 'many200.yaml');
  writeFileSync(c50, manyInterfaces(50));
  writeFileSync(c200, manyInterfaces(200));
  await timeCommand(process.execPath, [cli, 'compile', c50, '--out', join(dir, 'out')]);
  const bundle = join(dir, 'out', 'many50', 'server.mjs');
  const env = { SERVICE__VAR__UPSTREAM: 'http://127.0.0.1:9' };
  const nodeBareMs = await repeat(5, () => timeCommand(process.execPath, ['-e', '0']));
  const starts: Array<{ ms: number; cpuMs: number }> = [];
  const bareStarts: Array<{ ms: number; cpuMs: number }> = [];
  // Bare node printing a ready line: the floor a server's start is compared with.
  const bare = ['-e', 'console.log("listening on http://bare"); setInterval(() => {}, 1000)'];
  for (let i = 0; i < 5; i++) {
    for (const [args, into] of [[[bundle, '--port', '0'], starts], [bare, bareStarts]] as const) {
      const s = await startServer('start', process.execPath, [...args], { env });
      into.push({ ms: s.startMs, cpuMs: cpuUs(s.child.pid) / 1000 });
      await stopServer(s);
    }
  }
  const coldStart50Ms = Math.round(median(starts.map((s) => s.ms)));
  const coldStart50CpuMs = Math.round(median(starts.map((s) => s.cpuMs)));
  const nodeBareCpuMs = Math.round(median(bareStarts.map((s) => s.cpuMs)));
  const compile200Ms = await repeat(3, () => timeCommand(process.execPath, [cli, 'compile', c200, '--out', join(dir, 'out200')]));
  const checkQuickstartMs = await repeat(5, () => timeCommand(process.execPath, [cli, 'check', join(root, 'fixtures', 'quickstart.yaml')]));
  return { nodeBareMs, coldStart50Ms, nodeBareCpuMs, coldStart50CpuMs, bundle50Bytes: statSync(bundle).size, compile200Ms, checkQuickstartMs };
}
