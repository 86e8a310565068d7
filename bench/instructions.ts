// `npm run bench:instructions -- <scenario> [--ways bundle,hand_written] [--also name=saved/server.mjs]
// [--warm N] [--requests N]`: instructions a request of each way's server, counted by valgrind's
// callgrind, on the main thread (the JavaScript and the GC work done there) and on all threads. Only
// the measured requests are counted: instrumentation is switched on after `warm` requests and off
// after `requests` more. On a shared machine CPU time a request moves ±10% from round to round; these
// counts move less, but not nothing: the same bundle measured 400–406k on one host (JIT decisions differ
// per process), and the hand-written server once 367k and once 440k. Compare runs side by side, repeat
// them, and read a difference under ~1% as none. Instructions are not time (a larger code and data
// footprint costs cache misses the count does not see): confirm a gain with `bench:cpu`.
// One server at a time (each runs some 30× slower under valgrind).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { startServer, stopServer, type Server } from './proc.ts';
import { compiledScenario, handWrittenScript, scenarioNamed, splitAlso, startUpstream } from './servers.ts';
import { buildDir } from './paths.ts';

const { values: o, positionals } = parseArgs({ allowPositionals: true, options: {
  ways: { type: 'string', default: 'bundle,hand_written' }, also: { type: 'string', multiple: true, default: [] },
  warm: { type: 'string', default: '20000' }, requests: { type: 'string', default: '3000' },
} });
try { execFileSync('valgrind', ['--version'], { stdio: 'ignore' }); } catch { throw new Error('bench:instructions needs valgrind (Debian: apt-get install valgrind)'); }
const s = await scenarioNamed(positionals[0] ?? 'passthrough');
const WARM = Number(o.warm), REQUESTS = Number(o.requests);
const dir = join(buildDir, 'instructions', s.name);

/** `amount` requests of the scenario at 20 connections; throws on errors or non-2xx answers. The
 *  timeout is long: under valgrind every thread takes turns, so a request waiting on a JIT compile or
 *  a GC on a loaded machine can take longer than autocannon's default 10 s (a 499, counted as an error). */
async function load(x: Server, amount: number): Promise<void> {
  const r = await autocannon({ url: x.url + s.request.path, method: s.request.method, headers: s.request.headers, body: s.request.body, connections: 20, amount, timeout: 120 });
  if (r.errors || r.non2xx) throw new Error(`${x.name}: ${r.errors} errors, ${r.non2xx} non-2xx answers`);
}

/** The `totals:` line of each callgrind output file whose name passes `pick`, summed. */
function totals(prefix: string, pick: (file: string) => boolean): number {
  const base = prefix.slice(prefix.lastIndexOf('/') + 1);
  return readdirSync(dir).filter((f) => f.startsWith(base) && pick(f))
    .reduce((sum, f) => sum + Number(/^totals: (\d+)/m.exec(readFileSync(join(dir, f), 'utf8'))?.[1] ?? 0), 0);
}

async function count(name: string, script: string[], env: NodeJS.ProcessEnv): Promise<{ main: number; all: number }> {
  const out = join(dir, `${name}.out`);
  const x = await startServer(name, 'valgrind', ['--tool=callgrind', '--instr-atstart=no', '--separate-threads=yes', `--callgrind-out-file=${out}`, process.execPath, ...script], { env, timeoutMs: 300_000 });
  try {
    await load(x, WARM);
    execFileSync('callgrind_control', ['-i', 'on', String(x.child.pid)], { stdio: 'ignore' });
    await load(x, REQUESTS);
    execFileSync('callgrind_control', ['-i', 'off', String(x.child.pid)], { stdio: 'ignore' });
    execFileSync('callgrind_control', ['-d', String(x.child.pid)], { stdio: 'ignore' });
    // The dump is written by the process itself: wait for the main thread's file.
    const mainFile = `${out}.1-01`;
    for (let i = 0; i < 600 && !(existsSync(mainFile) && readFileSync(mainFile, 'utf8').includes('totals:')); i++) await new Promise((r) => setTimeout(r, 100));
    return { main: totals(`${out}.1-`, (f) => f.endsWith('-01')) / REQUESTS, all: totals(`${out}.1-`, () => true) / REQUESTS };
  } finally {
    x.child.kill('SIGKILL');
    await stopServer(x);
  }
}

rmSync(dir, { recursive: true, force: true });
const upstream = await startUpstream();
try {
  const env = { SERVICE__VAR__UPSTREAM: upstream.url };
  const { bundle } = await compiledScenario(s, dir);
  // The bundle and the hand-written server (the fast way's `serve` would count the compiler's process too).
  const ways: [string, string[]][] = [];
  for (const w of o.ways!.split(',').filter(Boolean)) { // --ways '': only the --also bundles
    if (w === 'bundle') ways.push([w, [bundle, '--port', '0']]);
    else if (w === 'hand_written') ways.push([w, [await handWrittenScript(s), upstream.url]]);
    else throw new Error(`--ways ${w}: bench:instructions serves bundle and hand_written (and --also bundles)`);
  }
  for (const a of o.also!) { const [w, f] = splitAlso(a); ways.push([w, [f, '--port', '0']]); }
  const counted: Record<string, { main: number; all: number }> = {};
  for (const [w, args] of ways) {
    counted[w] = await count(w, args, env);
    process.stderr.write(`${w}: ${Math.round(counted[w]!.main)} instructions a request on the main thread, ${Math.round(counted[w]!.all)} on all threads\n`);
  }
  const hand = counted.hand_written;
  process.stdout.write(`${s.name}: instructions a request (callgrind), ${REQUESTS} requests after ${WARM}, 20 connections\n`);
  for (const [w, c] of Object.entries(counted)) {
    const ratio = hand && w !== 'hand_written' ? `   main thread ${(c.main / hand.main).toFixed(3)}× hand_written` : '';
    process.stdout.write(`  ${w.padEnd(13)} main ${Math.round(c.main).toString().padStart(8)}   all ${Math.round(c.all).toString().padStart(8)}${ratio}\n`);
  }
} finally {
  await stopServer(upstream);
}
