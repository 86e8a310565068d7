// One client process of the fanout benchmark (bench/fanout.ts starts several): opens COUNT WebSocket
// clients to URL, subscribes each to the channel "bench", and tells the parent over IPC, for each
// publish's sequence number, when the last of its own sockets received it. Spread over processes,
// the clients read in parallel: one process reading all 1,000 sockets one after the other added its
// own queue to the latency the benchmark is meant to show of the server.
import WebSocket from 'ws';

export type FromClients =
  | { kind: 'ready' }
  | { kind: 'all'; seq: number; at: number }
  | { kind: 'cpu'; us: number; frames: number };
export type ToClients = { kind: 'cpu' } | { kind: 'stop' };

const url = process.env.URL!;
const count = Number(process.env.COUNT);
const send = (m: FromClients) => process.send!(m);
/** Wall-clock time comparable across processes (performance.now() alone is per process). */
const now = () => performance.timeOrigin + performance.now();

const got = new Map<number, number>();
let frames = 0;
const sockets: WebSocket[] = [];
await Promise.all(Array.from({ length: count }, () => new Promise<void>((resolve, reject) => {
  const ws = new WebSocket(url);
  sockets.push(ws);
  ws.once('error', reject);
  ws.once('open', () => ws.send(JSON.stringify({ type: 'ap_subscribe', channel: 'bench' })));
  ws.on('message', (d) => {
    const text = d.toString();
    if (text.includes('"ap_subscribed"')) return resolve();
    // Only the sequence number is read; a full JSON.parse per frame would be client cost, not server.
    const m = /"seq":(\d+)/.exec(text);
    if (!m) return;
    frames++;
    const seq = Number(m[1]);
    const n = (got.get(seq) ?? 0) + 1;
    if (n < count) { got.set(seq, n); return; }
    got.delete(seq);
    send({ kind: 'all', seq, at: now() });
  });
})));
send({ kind: 'ready' });

process.on('message', (m: ToClients) => {
  if (m.kind === 'cpu') { const u = process.cpuUsage(); send({ kind: 'cpu', us: u.user + u.system, frames }); }
  else { for (const ws of sockets) ws.terminate(); process.disconnect(); }
});
