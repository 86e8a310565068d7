// Benchmark "fanout": 1,000 WebSocket clients subscribed to one channel of a served config (its own
// process, in-memory store); publishes through ws_publish at a fixed rate, then as fast as they are
// delivered. Reports delivery latency from the publish to the LAST socket (p50/p99), delivered
// publishes per second, and server memory per socket. Run: npm run bench:fanout
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';

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

// PROFILE_DIR=<dir>: the server writes a V8 CPU profile there when it exits (compare before/after a change).
const profile = process.env.PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', process.env.PROFILE_DIR] : [];
const server = spawn(process.execPath, [...profile, 'bin/pipewright.mjs', 'serve', config, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, SERVICE__WS_MAX_SUBSCRIPTIONS: '10' } });
const base = await new Promise<string>((resolve) => {
  let out = '';
  server.stdout!.on('data', (d) => { out += d; const m = /listening on http:\/\/(\S+)/.exec(out); if (m) resolve(m[1]!); });
});
const rssKiB = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))![1]);
await new Promise((r) => setTimeout(r, 500));
const before = rssKiB();

const arrivals = new Map<number, { sent: number; got: number; last: number }>();
const sockets: WebSocket[] = [];
for (let i = 0; i < SOCKETS; i++) {
  const ws = new WebSocket(`ws://${base}/ws/local/dev/feed`);
  await new Promise<void>((resolve, reject) => { ws.once('open', () => resolve()); ws.once('error', reject); });
  ws.on('message', (d) => {
    // The clients share this process: read the sequence number without parsing the whole frame.
    const m = /"seq":(\d+)/.exec(d.toString());
    if (!m) return;
    const a = arrivals.get(Number(m[1]));
    if (a) { a.got++; a.last = performance.now(); }
  });
  ws.send(JSON.stringify({ type: 'ap_subscribe', channel: 'bench' }));
  sockets.push(ws);
}
await new Promise((r) => setTimeout(r, 1000));
const connected = rssKiB();

let seq = 0;
async function publish(): Promise<void> {
  const s = ++seq;
  arrivals.set(s, { sent: performance.now(), got: 0, last: 0 });
  await fetch(`http://${base}/publish`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seq: s, at: Date.now() }) }).then((r) => r.arrayBuffer(), () => undefined);
}
const settle = async (ms = 2000) => { const end = Date.now() + ms; while (Date.now() < end && [...arrivals.values()].some((a) => a.got < SOCKETS)) await new Promise((r) => setTimeout(r, 20)); };

// Warm-up (JIT, socket buffers), not measured.
for (let n = 0; n < 200; n++) { await publish(); }
await settle();
arrivals.clear();

// Fixed rate: RATE publishes per second for SECONDS seconds.
const start = performance.now();
for (let n = 0; n < RATE * SECONDS; n++) {
  const due = start + (n * 1000) / RATE;
  const wait = due - performance.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  void publish();
}
await settle();
const complete = [...arrivals.values()].filter((a) => a.got === SOCKETS);
const lat = complete.map((a) => a.last - a.sent).sort((x, y) => x - y);
const pct = (p: number) => +(lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))] ?? NaN).toFixed(1);
const fixed = { publishes: RATE * SECONDS, deliveredToAll: complete.length, p50Ms: pct(50), p99Ms: pct(99), maxMs: +(lat[lat.length - 1] ?? NaN).toFixed(1) };

// Saturation: publish back to back (8 in flight) for SECONDS seconds.
arrivals.clear();
const t0 = performance.now();
const inflight = new Set<Promise<void>>();
while (performance.now() - t0 < SECONDS * 1000) {
  const p = publish().finally(() => inflight.delete(p));
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
  fixedRate: { ratePerSec: RATE, ...fixed },
  saturation: { deliveredPublishesPerSec: Math.round(full / elapsed), messagesPerSec: Math.round((full * SOCKETS) / elapsed) },
  memory: { serverRssBeforeMiB: +(before / 1024).toFixed(1), serverRssWithSocketsMiB: +(connected / 1024).toFixed(1), perSocketKiB: +((connected - before) / SOCKETS).toFixed(1) },
  target: 'p99 < 50 ms at 100 publishes/s to 1,000 sockets',
  met: fixed.p99Ms < 50 && fixed.deliveredToAll === fixed.publishes,
  note: 'the 1,000 client sockets run in the benchmark process on the same 2 cores as the server',
};
console.log(JSON.stringify(report, null, 2));
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/fanout.json', `${JSON.stringify(report, null, 2)}\n`);
for (const ws of sockets) ws.terminate();
server.kill('SIGTERM');
await new Promise((r) => server.once('exit', r));
