// `npm run bench:cpu -- <scenario> [--ways fast,bundle,interpreter,hand_written] [--requests N] [--rounds N]
// [--connections N] [--base <other checkout>/bin/pipewright.mjs]`: the server's CPU time per request (user + system, from /proc) for one scenario of
// bench/scenarios/, each way in its own process, a fixed number of requests per round, rounds
// interleaved, the least round of each. CPU per request stays meaningful on a loaded machine where req/s does not.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { build } from 'esbuild';
import type { Scenario } from './scenario.ts';
import { cpuUs, startServer, stopServer, type Server } from './proc.ts';
import { buildDir, cli } from './paths.ts';
import { answerOf } from './load.ts';

const { values: o, positionals } = parseArgs({ allowPositionals: true, options: {
  ways: { type: 'string', default: 'fast,bundle,hand_written' }, requests: { type: 'string', default: '200' },
  rounds: { type: "string", default: "5" }, connections: { type: 'string' },
  // Another checkout's bin/pipewright.mjs (built): its bundle of the scenario is measured as the way `base`.
  base: { type: 'string' },
} });
const name = positionals[0] ?? 'passthrough';
const s = ((await import(pathToFileURL(join(import.meta.dirname, 'scenarios', `${name}.ts`)).href)) as { scenario: Scenario }).scenario;
const ways = [...o.ways!.split(','), ...(o.base ? ['base'] : [])];
const connections = Number(o.connections ?? s.connections ?? 20), requests = Number(o.requests);

async function script(file: string, contents: string): Promise<string> {
  const entry = join(buildDir, `${file}-entry.ts`), out = join(buildDir, `${file}.mjs`);
  writeFileSync(entry, contents);
  await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', outfile: out, logLevel: 'error' });
  return out;
}

mkdirSync(buildDir, { recursive: true });
const dir = join(buildDir, 'cpu', s.name), file = s.name.replace(/-/g, '_');
mkdirSync(dir, { recursive: true });
const config = join(dir, `${file}.yaml`);
writeFileSync(config, s.config);
const upstream = await startServer('upstream', process.execPath, [await script('upstream', `import "../upstream.ts";\n`)]);
const servers: Server[] = [];
const load = (url: string, amount: number) => autocannon({ url: url + s.request.path, method: s.request.method, headers: s.request.headers, body: s.request.body, connections, amount });
try {
  const env = { SERVICE__VAR__UPSTREAM: upstream.url };
  if (ways.includes('bundle') || o.base) {
    const { spawnSync } = await import('node:child_process');
    for (const [bin, out] of [[cli, 'out'], ...(o.base ? [[o.base, 'out-base']] : [])] as const) {
      const c = spawnSync(process.execPath, [bin, 'compile', config, '--out', join(dir, out)], { stdio: 'inherit' });
      if (c.status !== 0) throw new Error('compile failed');
    }
  }
  for (const w of ways) {
    const args = w === 'bundle' || w === 'base' ? [join(dir, w === 'base' ? 'out-base' : 'out', file, 'server.mjs'), '--port', '0']
      : w === 'hand_written' ? [await script(`hand-${s.name}`, `import { scenario } from ${JSON.stringify(`../scenarios/${s.name}.ts`)};\nimport { serveHandWritten } from "../hand-server.ts";\nawait serveHandWritten(scenario, process.argv[2]);\n`), upstream.url]
      : [cli, 'serve', config, '--port', '0', ...(w === 'interpreter' ? ['--no-fastpath'] : [])];
    servers.push(await startServer(w, process.execPath, args, { env }));
  }
  const answers = await Promise.all(servers.map((x) => answerOf(x.url, s.request)));
  answers.forEach((a, i) => { if (a.body !== answers[0]!.body || a.status !== 200) process.stderr.write(`${servers[i]!.name} answers differently: ${a.status} ${a.body.slice(0, 200)}\n`); });
  for (const x of servers) await load(x.url, requests); // warm-up
  const per: Record<string, number[]> = {};
  for (let r = 0; r < Number(o.rounds); r++) {
    for (const x of servers) {
      const c0 = cpuUs(x.child.pid);
      const res = await load(x.url, requests);
      (per[x.name] ??= []).push((cpuUs(x.child.pid) - c0) / res.requests.total);
    }
  }
  // The least round: interference from other processes only ever adds CPU.
  const median = (v: number[]) => Math.min(...v);
  const ref = per.hand_written ? median(per.hand_written) : undefined;
  for (const x of servers) {
    const m = median(per[x.name]!);
    process.stdout.write(`${s.name} ${x.name}: ${Math.round(m)} µs CPU/req (rounds ${per[x.name]!.map(Math.round).join(', ')})${ref ? `, hand/this ${(ref / m).toFixed(2)}×` : ''}\n`);
  }
} finally {
  for (const x of servers) await stopServer(x);
  await stopServer(upstream);
}
