// `npm run bench:memory -- [scenario] [--requests N] [--rounds N] [--interpreter] [--also name=path[,flag...]]`: peak RSS of the hand-written
// server, the bundle and the fast path (`serve`) after the same number of requests each (not the same
// time: a slower server would otherwise be measured after less work), interleaved rounds. Each
// server samples its own heap every 250 ms (a preloaded script): the largest old space seen tells
// promotion (request data that outlived young collections) apart from what stays resident.
// `--interpreter` adds `serve --no-fastpath`; `--also name=path[,flag...]` one more way for an A/B:
// another checkout's bin/pipewright.mjs (its `serve`, e.g. `base=…/bin/pipewright.mjs,--no-fastpath`)
// or a saved server.mjs.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { peakRssMb, startServer, stopServer, type Server } from './proc.ts';
import { compiledScenario, handWrittenScript, scenarioNamed, splitAlso, startUpstream } from './servers.ts';
import { buildDir, cli } from './paths.ts';

const { values: o, positionals } = parseArgs({ allowPositionals: true, options: {
  requests: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '3' }, connections: { type: 'string', default: '20' },
  interpreter: { type: 'boolean' }, also: { type: 'string', multiple: true, default: [] },
} });
const name = positionals[0] ?? 'passthrough';
const s = await scenarioNamed(name);
const dir = join(buildDir, 'memory', s.name);
mkdirSync(dir, { recursive: true });

const sampler = join(dir, 'sampler.mjs');
writeFileSync(sampler, `import v8 from 'node:v8'; import { appendFileSync } from 'node:fs';
setInterval(() => { const old = v8.getHeapSpaceStatistics().find((x) => x.space_name === 'old_space');
  appendFileSync(process.env.PW_MEMORY_SAMPLES, JSON.stringify({ old: old.space_used_size, rss: process.memoryUsage.rss() }) + '\\n'); }, 250).unref();\n`);
const upstream = await startUpstream();
const { config, bundle } = await compiledScenario(s, dir);
const hand = await handWrittenScript(s);
const ways: Record<string, string[]> = {
  hand_written: [hand, upstream.url],
  bundle: [bundle, '--port', '0'],
  fast: [cli, 'serve', config, '--port', '0'],
  ...(o.interpreter ? { interpreter: [cli, 'serve', config, '--port', '0', '--no-fastpath'] } : {}),
};
for (const a of o.also!) {
  const [name, rest] = splitAlso(a);
  const [f, ...flags] = rest.split(',');
  ways[name] = [...(f!.endsWith('pipewright.mjs') ? [f!, 'serve', config] : [f!]), '--port', '0', ...flags];
}
const results: Record<string, { peak: number; oldMaxMb: number }[]> = {};
try {
  for (let r = 0; r < Number(o.rounds); r++) {
    for (const [way, args] of Object.entries(ways)) {
      const samples = join(dir, `${way}.jsonl`);
      rmSync(samples, { force: true });
      const server: Server = await startServer(way, process.execPath, ['--import', sampler, ...args], { env: { SERVICE__VAR__UPSTREAM: upstream.url, PW_MEMORY_SAMPLES: samples } });
      try {
        const load = (amount: number) => autocannon({ url: server.url + s.request.path, method: s.request.method, headers: s.request.headers, body: s.request.body, connections: Number(o.connections), amount });
        await load(3000); // warm-up, as much for every server
        await load(Number(o.requests));
        const old = readFileSync(samples, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { old: number }).old);
        (results[way] ??= []).push({ peak: peakRssMb(server.child.pid), oldMaxMb: Math.round(Math.max(...old) / 1048576) });
      } finally { await stopServer(server); }
    }
  }
} finally { await stopServer(upstream); }
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const hw = median(results.hand_written!.map((x) => x.peak));
for (const [way, rs] of Object.entries(results)) {
  const peak = median(rs.map((x) => x.peak));
  process.stdout.write(`${way.padEnd(13)} peak RSS ${rs.map((x) => x.peak).join(' / ')} MB (median ${peak}, ${(peak / hw).toFixed(2)}× hand-written); largest old space ${rs.map((x) => x.oldMaxMb).join(' / ')} MB\n`);
}
