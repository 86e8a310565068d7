// `npm run bench:cpu -- <scenario> [--requests N] [--rounds N] [--connections N] [--ways fast,bundle,hand_written]
// [--also name=saved/server.mjs] [--also-env NAME=VALUE]`:
// the server's CPU time (user + system, /proc) per request over a fixed number of requests, for a
// scenario of bench/scenarios/ served the chosen ways, in interleaved rounds. CPU per request is what
// a loaded machine leaves intact (req/s is not); the ratio hand_written ÷ way is the speed ratio the
// scenario's targets compare. Prints each round, the median per way and the ratios.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { cpuUs, startServer, stopServer, type Server } from './proc.ts';
import { compiledScenario, handWrittenScript, scenarioNamed, splitAlso, startUpstream } from './servers.ts';
import { buildDir, cli } from './paths.ts';
import { answerOf } from './load.ts';

const { values: o, positionals } = parseArgs({ allowPositionals: true, options: {
  requests: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '3' }, connections: { type: 'string', default: '20' },
  ways: { type: 'string', default: 'fast,bundle,hand_written' },
  // name=path/to/server.mjs: a bundle saved earlier, served as one more way (A/B against a change).
  also: { type: 'string', multiple: true, default: [] },
  // NAME=VALUE for the --also servers only ("{upstream}" is the scenario's upstream URL), e.g. tracing on:
  // --also traced=<bundle> --also-env OTEL_EXPORTER_OTLP_ENDPOINT={upstream} (the upstream answers the exports).
  'also-env': { type: 'string', multiple: true, default: [] },
} });
const name = positionals[0] ?? 'passthrough';
const REQUESTS = Number(o.requests), ROUNDS = Number(o.rounds);
const ways = o.ways!.split(',');
const s = await scenarioNamed(name);

/** User CPU µs of the process's main thread alone: the JavaScript, without GC helper threads and
 *  without system time (on loopback the kernel's TCP work for the peer is charged to whoever runs,
 *  which makes system time noisy on a loaded machine). */
function mainUserUs(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) * 1e6) / 100;
  } catch { return NaN; }
}

/** `amount` requests at `connections`; the server's CPU µs per request, all threads (user + system)
 *  and main thread user time. */
async function cpuRound(x: Server, amount: number): Promise<{ all: number; main: number }> {
  const c0 = cpuUs(x.child.pid), m0 = mainUserUs(x.child.pid);
  const r = await autocannon({ url: x.url + s.request.path, method: s.request.method, headers: s.request.headers, body: s.request.body, connections: Number(o.connections), amount });
  if (r.errors || r.non2xx) throw new Error(`${x.name}: ${r.errors} errors, ${r.non2xx} non-2xx answers`);
  const n = r.requests.total;
  return { all: (cpuUs(x.child.pid) - c0) / n, main: (mainUserUs(x.child.pid) - m0) / n };
}

const upstream = await startUpstream();
const env = { SERVICE__VAR__UPSTREAM: upstream.url };
const servers: Server[] = [];
try {
  const { config, bundle } = await compiledScenario(s, join(buildDir, 'cpu', s.name));
  for (const w of ways) {
    const args = w === 'bundle' ? [bundle, '--port', '0']
      : w === 'hand_written' ? [await handWrittenScript(s), upstream.url]
      : [cli, 'serve', config, '--port', '0', ...(w === 'interpreter' ? ['--no-fastpath'] : [])];
    servers.push(await startServer(w, process.execPath, args, { env }));
  }
  for (const a of o.also!) {
    const [w, f] = splitAlso(a);
    const extra = Object.fromEntries(o['also-env']!.map((kv) => splitAlso(kv)).map(([k, v]) => [k, v.replaceAll('{upstream}', upstream.url)]));
    servers.push(await startServer(w, process.execPath, [f, '--port', '0'], { env: { ...env, ...extra } }));
  }
  const answers = await Promise.all(servers.map((x) => answerOf(x.url, s.request)));
  for (let i = 1; i < answers.length; i++) {
    const a = answers[i]!, b = answers[0]!;
    if (a.status !== b.status || a.type !== b.type || a.body !== b.body) throw new Error(`${servers[i]!.name} answers differently from ${servers[0]!.name}`);
  }
  for (const x of servers) await cpuRound(x, Math.ceil(REQUESTS / 2)); // warm-up: the JIT settles
  const per: Record<string, number[]> = {}, main: Record<string, number[]> = {};
  for (let r = 0; r < ROUNDS; r++) {
    // Interleaved, the order turning each round: a change in machine load hits every way alike.
    for (let k = 0; k < servers.length; k++) {
      const x = servers[(k + r) % servers.length]!;
      const c = await cpuRound(x, REQUESTS);
      (per[x.name] ??= []).push(c.all);
      (main[x.name] ??= []).push(c.main);
    }
    process.stderr.write(`round ${r + 1}: ${servers.map((x) => `${x.name} ${Math.round(per[x.name]!.at(-1)!)} µs (main user ${Math.round(main[x.name]!.at(-1)!)})`).join(', ')}\n`);
  }
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
  const med = Object.fromEntries(Object.entries(per).map(([k, v]) => [k, median(v)]));
  const medMain = Object.fromEntries(Object.entries(main).map(([k, v]) => [k, median(v)]));
  process.stdout.write(`${s.name}: CPU µs per request, all threads user + system (main thread user), median of ${ROUNDS} rounds of ${REQUESTS}, ${o.connections} connections\n`);
  for (const [k, v] of Object.entries(med)) {
    const hand = med.hand_written, handMain = medMain.hand_written;
    const ratio = hand && k !== 'hand_written' ? `   hand_written/${k} = ${(hand / v).toFixed(2)}× (main user ${(handMain! / medMain[k]!).toFixed(2)}×)` : '';
    process.stdout.write(`  ${k.padEnd(13)} ${v.toFixed(1).padStart(7)} µs (${medMain[k]!.toFixed(1)})${ratio}   least: ${Math.min(...per[k]!).toFixed(1)} (${Math.min(...main[k]!).toFixed(1)})\n`);
  }
} finally {
  for (const x of servers) await stopServer(x);
  await stopServer(upstream);
}
