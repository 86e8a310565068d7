// The load generator: workers keep a mix of HTTP interfaces (with retries to a flaky upstream,
// delays that suspend, callback waits), MQTT publishes and ws publishes going against the live nodes,
// an approver resumes each callback wait on a random node, and one WebSocket subscriber per node
// records what reaches it. Everything a client saw accepted is recorded for the invariants.
import mqtt, { type MqttClient } from 'mqtt';
import WebSocket from 'ws';
import type { Ledger } from './ledger.ts';
import type { Node } from './nodes.ts';

export type Kind = 'order' | 'slow' | 'approve' | 'mqtt' | 'announce';
export const KINDS: Kind[] = ['order', 'slow', 'approve', 'mqtt', 'announce'];
const WEIGHTS: Array<[Kind, number]> = [['order', 35], ['slow', 20], ['approve', 10], ['mqtt', 15], ['announce', 20]];

export interface Sent { kind: Kind; id: string; node: string; status: number | 'error'; ms: number; at: number }
export interface Resume { id: string; status: number | 'error'; at: number }
export interface Subscriber { node: string; since?: number; until?: number; got: Set<string>; windows: Array<[number, number]> }

export interface Load {
  /** Nodes under SIGSTOP: the load and the subscribers leave them alone (the harness fills it). */
  paused: Set<string>;
  sent: Sent[];
  resumes: Resume[];
  resumed: Set<string>;
  subscribers: Subscriber[];
  stop(): Promise<void>;
  /** Resumes every callback wait still open (after the load, before the invariants). */
  finishApprovals(ms: number): Promise<void>;
}

export function startLoad(nodes: Node[], ledger: Ledger, o: { workers: number; pauseMs: number; mqttUrl: string; tag: string }): Load {
  const sent: Sent[] = [];
  const resumes: Resume[] = [];
  const resumed = new Set<string>();
  let stopped = false;
  let seq = 0;
  const live = () => nodes.filter((n) => !n.stopped && n.child && n.child.exitCode === null && !paused.has(n.name));
  const paused = new Set<string>();
  const pick = (): Kind => {
    let r = Math.random() * 100;
    for (const [k, w] of WEIGHTS) { if ((r -= w) < 0) return k; }
    return 'order';
  };
  const mq: MqttClient = mqtt.connect(o.mqttUrl, { protocolVersion: 5, reconnectPeriod: 500, queueQoSZero: false });
  mq.on('error', () => {});

  const post = async (n: Node, path: string, body: unknown): Promise<number | 'error'> => {
    try {
      const r = await fetch(`${n.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(20_000) });
      await r.arrayBuffer();
      return r.status;
    } catch { return 'error'; }
  };

  const one = async () => {
    const kind = pick();
    const id = `${o.tag}-${kind}-${seq++}`;
    const ns = live();
    const n = ns[seq % Math.max(ns.length, 1)];
    const t0 = Date.now();
    if (kind === 'mqtt') {
      if (!mq.connected) { sent.push({ kind, id, node: 'broker', status: 'error', ms: 0, at: t0 }); return; }
      let status: number | 'error' = 'error';
      try { await Promise.race([mq.publishAsync(`dev/sensor/faults/${id}`, JSON.stringify({ id }), { qos: 1 }), new Promise((_, f) => setTimeout(f, 5000))]); status = 200; } catch { /* not accepted */ }
      sent.push({ kind, id, node: 'broker', status, ms: Date.now() - t0, at: t0 });
      return;
    }
    if (!n) { sent.push({ kind, id, node: '-', status: 'error', ms: 0, at: t0 }); return; }
    const status = await post(n, `/${kind}`, { id });
    sent.push({ kind, id, node: n.name, status, ms: Date.now() - t0, at: t0 });
  };

  const workers = Array.from({ length: o.workers }, async () => {
    while (!stopped) {
      await one();
      await new Promise((r) => setTimeout(r, o.pauseMs));
    }
  });

  // The approver: each accepted callback wait is resumed once its token is known, on a random node.
  const approveOnce = async () => {
    for (const s of sent) {
      if (s.kind !== 'approve' || s.status !== 202 || resumed.has(s.id)) continue;
      const token = ledger.tokens.get(s.id);
      const ns = live();
      if (!token || !ns.length) continue;
      const n = ns[Math.floor(Math.random() * ns.length)]!;
      const status = await post(n, `/_ap/resume/${token}`, { by: n.name });
      resumes.push({ id: s.id, status, at: Date.now() });
      // 409: an earlier attempt was taken even though its answer was lost.
      if (status === 202 || status === 409) resumed.add(s.id);
    }
  };
  let approving = true;
  const approver = (async () => { while (approving) { await approveOnce(); await new Promise((r) => setTimeout(r, 100)); } })();

  const subscribers = nodes.map((n) => watch(n, () => approving, paused));

  return {
    paused, sent, resumes, resumed,
    subscribers: subscribers.map((s) => s.sub),
    async stop() { stopped = true; await Promise.all(workers); },
    async finishApprovals(ms) {
      const end = Date.now() + ms;
      while (Date.now() < end && sent.some((s) => s.kind === 'approve' && s.status === 202 && !resumed.has(s.id))) await new Promise((r) => setTimeout(r, 50));
      approving = false;
      await approver;
      for (const s of subscribers) s.close();
      await mq.endAsync(true);
    },
  };
}

/** One subscriber of channel `news` on a node: reconnects while the harness runs; records the windows
 *  in which it was subscribed, so a publish is expected only where a subscriber was there to get it. */
function watch(n: Node, running: () => boolean, paused: Set<string>): { sub: Subscriber; close(): void } {
  const sub: Subscriber = { node: n.name, got: new Set(), windows: [] };
  let ws: WebSocket | undefined;
  let closed = false;
  const connect = () => {
    if (closed || !running()) return;
    if (n.stopped || paused.has(n.name) || !n.child || n.child.exitCode !== null) { setTimeout(connect, 300); return; }
    const s = new WebSocket(`${n.url.replace('http', 'ws')}/ws/local/dev/feed`);
    ws = s;
    s.on('open', () => s.send(JSON.stringify({ type: 'ap_subscribe', channel: 'news' })));
    s.on('message', (d: Buffer) => {
      const f = JSON.parse(d.toString()) as { type: string; data?: { id?: string } };
      if (f.type === 'ap_subscribed') sub.since = Date.now();
      if (f.type === 'ap_message' && f.data?.id) sub.got.add(f.data.id);
    });
    const end = () => {
      if (sub.since !== undefined) sub.windows.push([sub.since, Date.now()]);
      sub.since = undefined;
      setTimeout(connect, 300);
    };
    s.on('close', end);
    s.on('error', () => {});
  };
  connect();
  return {
    sub,
    close() {
      closed = true;
      if (sub.since !== undefined) sub.windows.push([sub.since, Date.now()]);
      sub.since = undefined;
      ws?.terminate();
    },
  };
}
