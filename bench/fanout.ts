// Benchmark "fanout": 1,000 WebSocket clients subscribed to one channel of a served config (its own
// process, in-memory store); publishes through ws_publish at a fixed rate, then as fast as they are
// delivered. Reports delivery latency from the publish to the LAST socket (p50/p99), the CPU time of
// the server and of the clients per delivered frame, delivered publishes per second, and server
// memory per socket, and where the fixed-rate phase's publishes waited (run queue, event loops).
// Run: npm run bench:fanout (SOCKETS, RATE, SECONDS, CLIENT_PROCS, CLIENT_KIND=ws to vary it; SESSIONS=0,
// PRIORITY=rt below; the server sees this process's environment, so SERVICE__WS_FANOUT_SHARE=100
// serves with a flush every turn)
import { execFileSync, fork, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FromClients, ToClients } from './fanout-clients.ts';
import { readFileSync as read } from 'node:fs';
import { cpuUs } from './proc.ts';
import { Agent, request } from 'node:http';

/** The server's kernel-mode CPU (µs) and its context switches (voluntary: it waited; involuntary:
 *  preempted), from /proc: where its time per frame goes, and how often it gave up a core. */
function serverKernel(pid: number | undefined): { sysUs: number; switches: number } {
  const stat = read(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const status = read(`/proc/${pid}/status`, 'utf8');
  const n = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { sysUs: (Number(f[12]) * 1e6) / 100, switches: n('voluntary_ctxt_switches') + n('nonvoluntary_ctxt_switches') };
}

const load0 = +loadavg()[0]!.toFixed(2);
/** The process's scheduling group (Linux autogroup: one per session, CPU shared fairly between
 *  groups, a nice value counting only within its group), or '' where there is none. */
const groupOf = (pid: number | undefined) => { try { return read(`/proc/${pid}/autogroup`, 'utf8').trim(); } catch { return ''; } };
const SOCKETS = Number(process.env.SOCKETS ?? 1000);
const RATE = Number(process.env.RATE ?? 100);
const SECONDS = Number(process.env.SECONDS ?? 5);
const dir = mkdtempSync(join(tmpdir(), 'pw-fanout-'));
const config = join(dir, 'fanout.yaml');
writeFileSync(config, `
interfaces:
  feed:
    ws: true
    public: true
    actions: [{ name: Echo, input: a|body|, output: http }]
  publish:
    method: POST
    actions:
      - name: Send
        ws_publish: { channels: bench, data: a|body| }
        output: http
`);

// PROFILE_DIR=<dir>: the server and each client process write a V8 CPU profile there when they exit
// (the server's file name has its pid, printed below). TRACE_GC=1: they log their collections to stderr.
const profile = process.env.PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', process.env.PROFILE_DIR] : [];
const traceGc = process.env.TRACE_GC ? ['--trace-gc'] : [];
// SESSIONS=0: the server and the clients stay in this process's session. By default each starts a
// session of its own (setsid), so it is scheduled as its own group, as a deployed server is, rather
// than sharing one group's CPU with the clients and the publisher (see `groupOf` below).
const OWN_SESSIONS = process.env.SESSIONS !== '0';
const children: { kill(signal?: NodeJS.Signals): boolean }[] = [];
// In sessions of their own the children outlive an interrupted bench unless it stops them.
process.on('exit', () => { for (const c of children) c.kill('SIGKILL'); });
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => process.exit(130));
const server = spawn(process.execPath, [...profile, ...traceGc, '--import', './bench/fanout-probe.mjs', 'bin/pipewright.mjs', 'serve', config, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'], detached: OWN_SESSIONS, env: { ...process.env, SERVICE__WS_MAX_SUBSCRIPTIONS: '10' } });
children.push(server);
if (profile.length) console.error(`server pid ${server.pid}`);
/** The server's event-loop delay since the last ask (bench/fanout-probe.mjs, on SIGUSR2). */
interface LoopDelay { p50Ms: number; p99Ms: number; maxMs: number }
let probed: ((d: LoopDelay) => void) | undefined;
const serverLoop = () => new Promise<LoopDelay>((resolve) => { probed = (d) => { probed = undefined; resolve(d); }; server.kill('SIGUSR2'); });
/** ms a process's main thread has spent runnable but waiting for a core, from /proc/<pid>/schedstat
 *  (time on a core, time on the run queue, in ns): where a late frame waits when the cores are busy. */
const runQueueMs = (pid: number | undefined) => { try { return Number(read(`/proc/${pid}/schedstat`, 'utf8').split(' ')[1]) / 1e6; } catch { return NaN; } };
const base = await new Promise<string>((resolve) => {
  let out = '';
  server.stdout!.on('data', (d) => { if (traceGc.length) process.stderr.write(d); });
  // The listening line is on stderr (stdout holds only JSON lines); the rest of stderr is passed on.
  server.stderr!.on('data', (d) => {
    out += d;
    for (let m; (m = /fanout-probe (\{.*\})\n/.exec(out)); out = out.slice(0, m.index) + out.slice(m.index + m[0].length)) probed?.(JSON.parse(m[1]!) as LoopDelay);
    const m = /listening on http:\/\/(\S+)/.exec(out);
    if (m) { resolve(m[1]!); }
    if (!/fanout-probe/.test(String(d))) process.stderr.write(d);
  });
});
const rssKiB = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))![1]);
await new Promise((r) => setTimeout(r, 500));
const before = rssKiB();

// The clients run in CLIENT_PROCS processes of their own (bench/fanout-clients.ts; default one per
// core), each telling this one when all its sockets received a publish; a publish's latency runs
// from its request here to the last of those (clocks: performance.timeOrigin + now(), comparable
// across processes).
const CLIENT_PROCS = Math.max(1, Math.min(SOCKETS, Number(process.env.CLIENT_PROCS ?? availableParallelism())));
const now = () => performance.timeOrigin + performance.now();
/** Per publish: when it was sent, how many sockets have it, when the first and the last got it. */
interface Arrival { sent: number; got: number; first: number; last: number; done?: () => void }
const arrivals = new Map<number, Arrival>();
const clients = Array.from({ length: CLIENT_PROCS }, (_, i) => {
  const count = Math.floor(SOCKETS / CLIENT_PROCS) + (i < SOCKETS % CLIENT_PROCS ? 1 : 0);
  const child = fork('bench/fanout-clients.ts', [], { detached: OWN_SESSIONS, execArgv: ['--import', 'tsx', ...profile, ...traceGc], env: { ...process.env, URL: `ws://${base}/ws/local/dev/feed`, COUNT: String(count) } });
  children.push(child);
  const ready = new Promise<void>((resolve) => child.on('message', (m: FromClients) => {
    if (m.kind === 'ready') resolve();
    else if (m.kind === 'all') {
      m.seqs.forEach((seq, k) => {
        const a = arrivals.get(seq);
        if (a) { a.got += count; a.first = Math.min(a.first, m.firsts[k]!); a.last = Math.max(a.last, m.ats[k]!); if (a.got === SOCKETS) a.done?.(); }
      });
    }
  }));
  return { child, ready };
});
await Promise.all(clients.map((c) => c.ready));
// PRIORITY=rt (root): the server, the clients and this process run at real-time priority
// (SCHED_RR 1, every thread) through the two latency phases, back to normal before saturation: on a
// machine shared with other sessions' work, the fan-out measured as on cores of its own. Off by
// default; the report and the summary line say which.
const RT = process.env.PRIORITY === 'rt';
const ours = () => [server.pid, ...clients.map(({ child }) => child.pid), process.pid];
const policy = (args: string[]) => { for (const pid of ours()) execFileSync('chrt', ['-a', ...args, '-p', args[0] === '-r' ? '1' : '0', String(pid)]); };
if (RT) policy(['-r']);
await new Promise((r) => setTimeout(r, 500));
const connected = rssKiB();
/** CPU time (µs) used so far by the server and by all client processes, and the frames received. */
const cpu = async () => {
  const fromClients = await Promise.all(clients.map(({ child }) => new Promise<Extract<FromClients, { kind: 'cpu' }>>((resolve) => {
    const on = (m: FromClients) => { if (m.kind === 'cpu') { child.off('message', on); resolve(m); } };
    child.on('message', on);
    child.send({ kind: 'cpu' } satisfies ToClients);
  })));
  const k = serverKernel(server.pid);
  const sum = (key: 'us' | 'sysUs' | 'switches' | 'frames') => fromClients.reduce((a, c) => a + c[key], 0);
  return {
    server: cpuUs(server.pid), serverSys: k.sysUs, serverSwitches: k.switches, clients: sum('us'), clientsSys: sum('sysUs'), clientsSwitches: sum('switches'), frames: sum('frames'),
    at: performance.now(), serverRunQueueMs: runQueueMs(server.pid), clientsRunQueueMs: clients.map(({ child }) => runQueueMs(child.pid)), benchRunQueueMs: runQueueMs(process.pid),
    clientsLoop: fromClients.map((c) => ({ p99Ms: c.loopP99Ms, maxMs: c.loopMaxMs })),
  };
};

// Publishes go out as plain HTTP/1.1 requests on kept-alive connections (node:http): the publisher
// shares the cores with the server and the clients, and fetch (undici) cost it ~1.5 ms of CPU per
// publish against ~0.65 ms (docs/decisions.md, Performance, "WebSocket fan-out"). The latency still
// runs from just before the request is written.
const agent = new Agent({ keepAlive: true });
const post = (body: string) => new Promise<void>((resolve) => {
  const req = request(`http://${base}/publish`, { agent, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => { res.on('end', resolve).on('error', () => resolve()).resume(); });
  req.on('error', () => resolve());
  req.end(body);
});
let seq = 0;
/** Sends one publish; resolves with its answer, and `delivered` when all sockets have it. */
function publish(): { answered: Promise<void>; delivered: Promise<void> } {
  const s = ++seq;
  const a: Arrival = { sent: now(), got: 0, first: Infinity, last: 0 };
  const delivered = new Promise<void>((resolve) => { a.done = resolve; });
  arrivals.set(s, a);
  const answered = post(JSON.stringify({ seq: s, at: Date.now() }));
  return { answered, delivered };
}
const settle = async (ms = 2000) => { const end = Date.now() + ms; while (Date.now() < end && [...arrivals.values()].some((a) => a.got < SOCKETS)) await new Promise((r) => setTimeout(r, 20)); };
const latencies = () => {
  const complete = [...arrivals.values()].filter((a) => a.got === SOCKETS);
  const sorted = (f: (a: Arrival) => number) => complete.map(f).sort((x, y) => x - y);
  const pct = (l: number[], p: number) => +(l[Math.min(l.length - 1, Math.floor((p / 100) * l.length))] ?? NaN).toFixed(1);
  const lat = sorted((a) => a.last - a.sent), toFirst = sorted((a) => a.first - a.sent), spread = sorted((a) => a.last - a.first);
  // Where the latency goes: publish → first socket (the request, the run, the wait for the flush),
  // then first → last socket (the fan-out's writes and the clients' reads).
  return {
    deliveredToAll: complete.length, p50Ms: pct(lat, 50), p99Ms: pct(lat, 99), maxMs: +(lat[lat.length - 1] ?? NaN).toFixed(1),
    firstSocket: { p50Ms: pct(toFirst, 50), p99Ms: pct(toFirst, 99) }, firstToLast: { p50Ms: pct(spread, 50), p99Ms: pct(spread, 99) },
  };
};
// CPU per delivered frame stays meaningful on a loaded machine, where the latencies do not.
const cpuPerFrame = (a: Awaited<ReturnType<typeof cpu>>, b: Awaited<ReturnType<typeof cpu>>) => {
  const per = (us: number) => +(us / (b.frames - a.frames)).toFixed(2);
  const share = (part: number, whole: number) => +(part / whole).toFixed(2);
  return {
    serverUsPerFrame: per(b.server - a.server), clientsUsPerFrame: per(b.clients - a.clients),
    serverKernelShare: share(b.serverSys - a.serverSys, b.server - a.server), clientsKernelShare: share(b.clientsSys - a.clientsSys, b.clients - a.clients),
    serverSwitchesPerFrame: per(b.serverSwitches - a.serverSwitches), clientsSwitchesPerFrame: per(b.clientsSwitches - a.clientsSwitches),
  };
};

// Warm-up (JIT, socket buffers), not measured.
for (let n = 0; n < 200; n++) await publish().answered;
await settle();
arrivals.clear();

// One at a time: each publish delivered to every socket before the next is sent, so each fan-out
// is one publish's work alone (no batching, no queue): the work per publish, and the latency
// without load of the benchmark's own.
const ONE_AT_A_TIME = 100;
const prompt = (on: boolean) => { for (const { child } of clients) child.send({ kind: 'prompt', on } satisfies ToClients); };
prompt(true);
const cpuA = await cpu();
for (let n = 0; n < ONE_AT_A_TIME; n++) await Promise.race([publish().delivered, new Promise((r) => setTimeout(r, 2000))]);
const cpuB = await cpu();
prompt(false);
const oneAtATime = { publishes: ONE_AT_A_TIME, ...latencies(), cpu: cpuPerFrame(cpuA, cpuB) };
arrivals.clear();

// Where a phase's slow publishes waited: each process's main thread runnable but off a core (ms per
// second of the phase, from /proc/<pid>/schedstat), and the server's and clients' event-loop delay.
const waits = async (a: Awaited<ReturnType<typeof cpu>>, b: Awaited<ReturnType<typeof cpu>>) => {
  const perS = (ms: number) => +((ms * 1000) / (b.at - a.at)).toFixed(0);
  return {
    runQueueMsPerS: { server: perS(b.serverRunQueueMs - a.serverRunQueueMs), clients: b.clientsRunQueueMs.map((x, i) => perS(x - a.clientsRunQueueMs[i]!)), bench: perS(b.benchRunQueueMs - a.benchRunQueueMs) },
    serverLoopDelay: await serverLoop(), clientsLoopDelay: b.clientsLoop,
  };
};

// Fixed rate: RATE publishes per second for SECONDS seconds.
await serverLoop();
const cpu0 = await cpu();
const start = performance.now();
for (let n = 0; n < RATE * SECONDS; n++) {
  const due = start + (n * 1000) / RATE;
  const wait = due - performance.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  void publish();
}
await settle();
const cpu1 = await cpu();
const fixed = { publishes: RATE * SECONDS, ...latencies(), cpu: cpuPerFrame(cpu0, cpu1), waits: await waits(cpu0, cpu1) };

// Saturation: publish back to back (8 in flight) for SECONDS seconds.
if (RT) policy(['-o']); // never flat out at real-time priority
arrivals.clear();
const t0 = performance.now();
const inflight = new Set<Promise<void>>();
while (performance.now() - t0 < SECONDS * 1000) {
  const p = publish().answered.finally(() => inflight.delete(p));
  inflight.add(p);
  if (inflight.size >= 8) await Promise.race(inflight);
}
await Promise.all(inflight);
await settle(5000);
const elapsed = (performance.now() - t0) / 1000;
const full = [...arrivals.values()].filter((a) => a.got === SOCKETS).length;

const report = {
  date: new Date().toISOString().slice(0, 10),
  sockets: SOCKETS,
  loadAverage1m: +loadavg()[0]!.toFixed(2),
  loadAverage1mAtStart: load0,
  priority: RT ? 'SCHED_RR 1 (server, clients, publisher) for the latency phases' : 'normal',
  schedulerGroups: [server.pid, ...clients.map(({ child }) => child.pid), process.pid].map(groupOf),
  oneAtATime,
  fixedRate: { ratePerSec: RATE, ...fixed },
  saturation: { deliveredPublishesPerSec: Math.round(full / elapsed), messagesPerSec: Math.round((full * SOCKETS) / elapsed) },
  memory: { serverRssBeforeMiB: +(before / 1024).toFixed(1), serverRssWithSocketsMiB: +(connected / 1024).toFixed(1), perSocketKiB: +((connected - before) / SOCKETS).toFixed(1) },
  target: 'p99 < 50 ms at 100 publishes/s to 1,000 sockets',
  met: fixed.p99Ms < 50 && fixed.deliveredToAll === fixed.publishes,
  note: `the client sockets (${process.env.CLIENT_KIND === 'ws' ? 'ws WebSockets' : 'lean TCP readers, bench/ws-reader.ts'}) run in ${CLIENT_PROCS} processes of their own on the same cores as the server`,
};
console.log(JSON.stringify(report, null, 2));
process.stderr.write(`fanout: 100/s p50 ${fixed.p50Ms} p99 ${fixed.p99Ms} ms, load ${load0} → ${report.loadAverage1m}, run queue ms/s server ${fixed.waits.runQueueMsPerS.server} clients ${fixed.waits.runQueueMsPerS.clients.join('/')} bench ${fixed.waits.runQueueMsPerS.bench}, server loop delay p99 ${fixed.waits.serverLoopDelay.p99Ms} ms, sessions ${OWN_SESSIONS ? 'own' : 'shared'}${RT ? ', real-time priority' : ''}\n`);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/fanout.json', `${JSON.stringify(report, null, 2)}\n`);
for (const { child } of clients) child.send({ kind: 'stop' } satisfies ToClients);
server.kill('SIGTERM');
await new Promise((r) => server.once('exit', r));
