// `npm run bench:cpu -- <scenario> [--requests N] [--rounds N] [--connections N] [--ways fast,bundle,hand_written]`:
// the server's CPU time (user + system, /proc) per request over a fixed number of requests, for a
// scenario of bench/scenarios/ served the chosen ways, in interleaved rounds. CPU per request is what
// a loaded machine leaves intact (req/s is not); the ratio hand_written ÷ way is the speed ratio the
// scenario's targets compare. Prints each round, the median per way and the ratios.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { build } from 'esbuild';
import type { Scenario } from './scenario.ts';
import { cpuUs, startServer, stopServer, timeCommand, type Server } from './proc.ts';
import { buildDir, cli } from './paths.ts';
import { answerOf } from './load.ts';

const { values: o, positionals } = parseArgs({ allowPositionals: true, options: {
  requests: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '3' }, connections: { type: 'string', default: '20' },
  ways: { type: 'string', default: 'fast,bundle,hand_written' },
} });
const name = positionals[0] ?? 'passthrough';
const REQUESTS = Number(o.requests), ROUNDS = Number(o.rounds);
const ways = o.ways!.split(',');
const s = ((await import(pathToFileURL(join(import.meta.dirname, 'scenarios', `${name}.ts`)).href)) as { scenario: Scenario }).scenario;

/** Plain JavaScript for a helper process (no TypeScript loader in a measured process). */
async function script(file: string, contents: string): Promise<string> {
  const entry = join(buildDir, `${file}-entry.ts`), out = join(buildDir, `${file}.mjs`);
  writeFileSync(entry, contents);
  await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', outfile: out, logLevel: 'error' });
  return out;
}

/** `amount` requests at `connections`; the server's CPU µs per request. */
async function cpuRound(x: Server, amount: number): Promise<number> {
  const c0 = cpuUs(x.child.pid);
  const r = await autocannon({ url: x.url + s.request.path, method: s.request.method, headers: s.request.headers, body: s.request.body, connections: Number(o.connections), amount });
  if (r.errors || r.non2xx) throw new Error(`${x.name}: ${r.errors} errors, ${r.non2xx} non-2xx answers`);
  return (cpuUs(x.child.pid) - c0) / r.requests.total;
}

mkdirSync(buildDir, { recursive: true });
const dir = join(buildDir, 'cpu', s.name);
mkdirSync(dir, { recursive: true });
const file = s.name.replace(/-/g, '_');
const config = join(dir, `${file}.yaml`);
writeFileSync(config, s.config);
const upstream = await startServer('upstream', process.execPath, [await script('upstream', `import "../upstream.ts";\n`)]);
const env = { SERVICE__VAR__UPSTREAM: upstream.url };
const servers: Server[] = [];
try {
  if (ways.includes('bundle')) await timeCommand(process.execPath, [cli, 'compile', config, '--out', join(dir, 'out')]);
  for (const w of ways) {
    const args = w === 'bundle' ? [join(dir, 'out', file, 'server.mjs'), '--port', '0']
      : w === 'hand_written' ? [await script(`hand-${s.name}`, `import { scenario } from ${JSON.stringify(`../scenarios/${s.name}.ts`)};\nimport { serveHandWritten } from "../hand-server.ts";\nawait serveHandWritten(scenario, process.argv[2]);\n`), upstream.url]
      : [cli, 'serve', config, '--port', '0', ...(w === 'interpreter' ? ['--no-fastpath'] : [])];
    servers.push(await startServer(w, process.execPath, args, { env }));
  }
  const answers = await Promise.all(servers.map((x) => answerOf(x.url, s.request)));
  for (let i = 1; i < answers.length; i++) {
    const a = answers[i]!, b = answers[0]!;
    if (a.status !== b.status || a.type !== b.type || a.body !== b.body) throw new Error(`${servers[i]!.name} answers differently from ${servers[0]!.name}`);
  }
  for (const x of servers) await cpuRound(x, Math.ceil(REQUESTS / 2)); // warm-up: the JIT settles
  const per: Record<string, number[]> = {};
  for (let r = 0; r < ROUNDS; r++) {
    // Interleaved, the order turning each round: a change in machine load hits every way alike.
    for (let k = 0; k < servers.length; k++) {
      const x = servers[(k + r) % servers.length]!;
      (per[x.name] ??= []).push(await cpuRound(x, REQUESTS));
    }
    process.stderr.write(`round ${r + 1}: ${servers.map((x) => `${x.name} ${Math.round(per[x.name]!.at(-1)!)} µs`).join(', ')}\n`);
  }
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
  const med = Object.fromEntries(Object.entries(per).map(([k, v]) => [k, median(v)]));
  process.stdout.write(`${s.name}: CPU µs per request (median of ${ROUNDS} rounds of ${REQUESTS}, ${o.connections} connections)\n`);
  for (const [k, v] of Object.entries(med)) {
    const hand = med.hand_written;
    process.stdout.write(`  ${k.padEnd(13)} ${v.toFixed(1).padStart(7)} µs${hand && k !== 'hand_written' ? `   hand_written/${k} = ${(hand / v).toFixed(2)}×` : ''}\n`);
  }
} finally {
  for (const x of servers) await stopServer(x);
  await stopServer(upstream);
}
