// `npm run bench:profile -- <scenario> [--seconds N] [--way fast|bundle|interpreter|hand_written]`: serves one
// scenario of bench/scenarios/ with `node --cpu-prof`, drives it with autocannon, and prints the
// self time by function (top 40) of the server's CPU profile. Profiles are relative, so they stay
// meaningful on a loaded machine; absolute req/s here are not.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startServer, stopServer } from './proc.ts';
import { compiledScenario, handWrittenScript, scenarioNamed, startUpstream } from './servers.ts';
import { buildDir, cli } from './paths.ts';
import { answerOf, loadRound } from './load.ts';
import { summarise } from './profile-summary.ts';

const { values: o, positionals } = parseArgs({ allowPositionals: true, options: {
  seconds: { type: 'string', default: '10' }, way: { type: 'string', default: 'bundle' }, connections: { type: 'string', default: '20' },
  top: { type: 'string', default: '40' },
} });
const name = positionals[0] ?? 'passthrough';
const s = await scenarioNamed(name);

const upstream = await startUpstream();
const dir = join(buildDir, 'profile', s.name);
const { config, bundle } = await compiledScenario(s, dir);
const profDir = join(dir, 'prof', o.way!);
rmSync(profDir, { recursive: true, force: true });
const prof = ['--cpu-prof', '--cpu-prof-dir', profDir];
const args = o.way === 'bundle' ? [...prof, bundle, '--port', '0']
  : o.way === 'hand_written' ? [...prof, await handWrittenScript(s), upstream.url]
  : [...prof, cli, 'serve', config, '--port', '0', ...(o.way === 'interpreter' ? ['--no-fastpath'] : [])];
let startedMs = 0;
const t0 = performance.now();
const server = await startServer(o.way!, process.execPath, args, { env: { SERVICE__VAR__UPSTREAM: upstream.url } });
try {
  const a = await answerOf(server.url, s.request);
  process.stderr.write(`answer: ${a.status} ${a.body.slice(0, 120)}\n`);
  await loadRound(server.url, s.request, { connections: Number(o.connections), seconds: 1 });
  startedMs = performance.now() - t0; // the profile counts from here: start-up and warm-up left out
  const r = await loadRound(server.url, s.request, { connections: Number(o.connections), seconds: Number(o.seconds) });
  process.stderr.write(`${o.way}: ${Math.round(r.rps)} req/s (errors ${r.errors}, non-2xx ${r.non2xx})\n`);
} finally {
  await stopServer(server);
  await stopServer(upstream);
}
const newest = readdirSync(profDir).filter((f) => f.endsWith('.cpuprofile')).map((f) => join(profDir, f))
  .map((f) => ({ f, n: readFileSync(f).length })).sort((a, b) => a.n - b.n).pop()?.f; // the main thread's is the largest
if (!newest) throw new Error(`no profile written under ${profDir}`);
process.stdout.write(`${newest}\n${summarise(JSON.parse(readFileSync(newest, 'utf8')), Number(o.top), startedMs)}`);
