// One client process of the fanout benchmark (bench/fanout.ts starts several): opens COUNT WebSocket
// clients to URL, subscribes each to the channel "bench", and tells the parent over IPC, for each
// publish's sequence number, when the first and the last of its own sockets received it. Spread over processes,
// the clients read in parallel: one process reading all 1,000 sockets one after the other added its
// own queue to the latency the benchmark is meant to show of the server.
//
// The clients share the server's cores, so they do no more than a receiver must: each is a lean
// WebSocket reader over a plain TCP socket (ws-reader.ts: handshake, frame delimiting, pings; no
// stream machinery, one read buffer for the process), or with CLIENT_KIND=ws a `ws` WebSocket
// without permessage-deflate and UTF-8 validation (the clients used before, to compare). A frame's
// sequence number is read from its bytes, not from a decoded string. Arrival times are stamped on
// receipt and sent to the parent in batches (one IPC message per BATCH_MS, or at once when the
// parent asks for prompt reports): the latency is the stamps', and fewer messages wake the parent
// less often.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import WebSocket from 'ws';
import { openReader } from './ws-reader.ts';

export type FromClients =
  | { kind: 'ready' }
  | { kind: 'all'; seqs: number[]; ats: number[]; firsts: number[] }
  | { kind: 'cpu'; us: number; sysUs: number; switches: number; frames: number; loopP99Ms: number; loopMaxMs: number };
/** `prompt`: report each publish as soon as all of this process's sockets have it (the parent waits
 *  for it), rather than in batches. */
export type ToClients = { kind: 'cpu' } | { kind: 'prompt'; on: boolean } | { kind: 'stop' };

const url = process.env.URL!;
const count = Number(process.env.COUNT);
const BATCH_MS = 50;
const send = (m: FromClients) => process.send!(m);
/** Wall-clock time comparable across processes (performance.now() alone is per process). */
const now = () => performance.timeOrigin + performance.now();

// Sequence numbers are small integers counted from 1: an array indexed by them holds the counts.
const got: number[] = [];
/** When the first of this process's sockets received each publish. */
const first: number[] = [];
let frames = 0;
let prompt = false;
let pending: { seqs: number[]; ats: number[]; firsts: number[] } | undefined;
const flush = () => { if (pending) { send({ kind: 'all', ...pending }); pending = undefined; } };

/** The publish body's sequence number, read from the frame's bytes (`"seq":<digits>`); -1 if none. */
const SEQ = Buffer.from('"seq":');
function seqOf(b: Buffer): number {
  let i = b.indexOf(SEQ);
  if (i < 0) return -1;
  i += SEQ.length;
  let n = 0, c = b[i]!;
  if (c < 48 || c > 57) return -1;
  while (c >= 48 && c <= 57) { n = n * 10 + c - 48; c = b[++i]!; }
  return n;
}

function onFrame(d: Buffer): void {
  const seq = seqOf(d);
  if (seq < 0) return;
  frames++;
  const n = (got[seq] ?? 0) + 1;
  const at = now();
  if (n === 1) first[seq] = at;
  if (n < count) { got[seq] = n; return; }
  got[seq] = 0;
  if (prompt) { send({ kind: 'all', seqs: [seq], ats: [at], firsts: [first[seq]!] }); return; }
  if (!pending) { pending = { seqs: [], ats: [], firsts: [] }; setTimeout(flush, BATCH_MS); }
  pending.seqs.push(seq);
  pending.ats.push(at);
  pending.firsts.push(first[seq]!);
}

const SUBSCRIBE = JSON.stringify({ type: 'ap_subscribe', channel: 'bench' });
const SUBSCRIBED = Buffer.from('"ap_subscribed"');
const closers: (() => void)[] = [];

/** A `ws` WebSocket client, subscribed (CLIENT_KIND=ws). */
const wsClient = () => new Promise<void>((resolve, reject) => {
  const ws = new WebSocket(url, { perMessageDeflate: false, skipUTF8Validation: true });
  closers.push(() => ws.terminate());
  ws.once('error', reject);
  ws.once('open', () => ws.send(SUBSCRIBE));
  const first = (d: WebSocket.RawData) => {
    if (!(d as Buffer).includes(SUBSCRIBED)) return;
    ws.off('message', first);
    ws.on('message', (m) => onFrame(m as Buffer));
    resolve();
  };
  ws.on('message', first);
});

/** A lean reader (ws-reader.ts), subscribed: frames before the confirmation are not counted. */
const leanClient = () => new Promise<void>((resolve, reject) => {
  let subscribed = false;
  openReader(url, (p) => {
    if (subscribed) onFrame(p);
    else if (p.includes(SUBSCRIBED)) { subscribed = true; resolve(); }
  }).then((r) => { closers.push(() => r.close()); r.send(SUBSCRIBE); }, reject);
});

// This process's event-loop delay since the last `cpu` report: a late last socket waited here or not.
const loop = monitorEventLoopDelay({ resolution: 1 });
loop.enable();

const client = process.env.CLIENT_KIND === 'ws' ? wsClient : leanClient;
await Promise.all(Array.from({ length: count }, client));
send({ kind: 'ready' });

process.on('message', (m: ToClients) => {
  if (m.kind === 'cpu') {
    flush();
    const u = process.resourceUsage();
    send({ kind: 'cpu', us: u.userCPUTime + u.systemCPUTime, sysUs: u.systemCPUTime, switches: u.voluntaryContextSwitches + u.involuntaryContextSwitches, frames,
      loopP99Ms: +(loop.percentile(99) / 1e6).toFixed(1), loopMaxMs: +(loop.max / 1e6).toFixed(1) });
    loop.reset();
  }
  else if (m.kind === 'prompt') { flush(); prompt = m.on; }
  else { flush(); for (const close of closers) close(); process.disconnect(); }
});
