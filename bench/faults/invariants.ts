// What must hold after the load and the faults, checked from the independent ledger (each side effect
// with its request id and action) and the store: every accepted run completed, nothing ran twice but
// what a fault cut in flight, no run held past its lease, each tick and each callback once, every ws
// publish reached the subscribers that were there for it, no node crashed, and each node's retained
// memory came back to its baseline after the load.
import pg from 'pg';
import type { Ledger } from './ledger.ts';
import type { Load, Sent } from './load.ts';
import { alarmingLines, type Memory, type Node } from './nodes.ts';
import type { FaultWindow } from './run.ts';

export interface Invariants {
  /** Accepted by a client (2xx/202) and never completed. Must be empty. */
  lost: string[];
  /** Accepted, then ended failed by the rules (an upstream that kept failing through every retry): a
   *  finished run, not a lost one. Reported with the store's answer. */
  failed: string[];
  /** MQTT-triggered runs in flight on a node that was killed: the broker had its acknowledgement at
   *  delivery (documented: at most once across a node's death). Counted, not a violation. */
  mqttLostAtKill: string[];
  /** Side effects recorded twice where no fault was in flight. Must be empty. */
  duplicated: string[];
  /** Side effects recorded twice with a kill, pause or outage in flight (documented: counted). */
  duplicatedByFaults: string[];
  /** Side effects recorded twice by attempts of one action execution (every record with the same
   *  Idempotency-Key): the upstream answered after the action's timeout and the retry called again.
   *  At least once per action by design; an upstream honouring the key records it once. Counted. */
  duplicatedSameKey: string[];
  /** Runs still `running` past their lease, or suspended past their wake time, after the drain. */
  stuck: string[];
  /** Minutes with more than one schedule tick, or ticks the ledger and the store disagree on. */
  ticks: string[];
  /** Accepted ws publishes a subscriber present throughout missed, outside any fault window. */
  wsMissed: string[];
  /** ... and inside one (reported, not a violation), by the kind of fault. */
  wsMissedInFaults: number;
  wsMissedByFault: Record<string, number>;
  /** MQTT publishes the broker accepted while no node could be subscribed (just after its restart). */
  mqttInBrokerGap: number;
  crashes: string[];
  /** Each node's memory at its baseline (after the warm-up) and after the drain, a settle and a full
   *  GC both times. */
  memory: Array<{ node: string; baseline?: Memory; after?: Memory }>;
  /** Nodes whose retained memory (heap + external) did not come back within the tolerance. */
  memoryNotBack: string[];
  ok: boolean;
}

/** "Back to its baseline": the retained memory (V8 heap used + external buffers, both after a full
 *  GC) at most this much above the baseline: max(MEMORY_SLACK_KB, MEMORY_SLACK_SHARE × baseline).
 *  RSS is reported, not judged: V8 and malloc keep freed pages, so RSS stays near its high-water
 *  mark after any load, leak or not. The slack covers code optimised after the warm-up and pools
 *  and caches that grow to their bound under load; a per-run leak grows past it with the run count. */
export const MEMORY_SLACK_KB = 8 * 1024;
export const MEMORY_SLACK_SHARE = 0.25;
const SETTLE_MS = 2000;

export function memoryBack(b: Memory, a: Memory): { grewKb: number; allowedKb: number; ok: boolean } {
  const retained = (m: Memory) => (m.heapKb ?? 0) + (m.externalKb ?? 0);
  const grewKb = retained(a) - retained(b);
  const allowedKb = Math.round(Math.max(MEMORY_SLACK_KB, MEMORY_SLACK_SHARE * retained(b)));
  return { grewKb, allowedKb, ok: grewKb <= allowedKb };
}

const WS_GRACE_MS = 3000;

export async function checkInvariants(c: {
  load: Load; ledger: Ledger; nodes: Node[]; windows: FaultWindow[]; db: { url: string; schema: string }; drainMs: number; leaseMs: number;
  baseline: Map<string, Memory>; probe: (n: Node) => Promise<Memory | undefined>;
}): Promise<Invariants> {
  const { load, ledger, windows } = c;
  const accepted = (s: Sent) => typeof s.status === 'number' && s.status >= 200 && s.status < 300;
  // Indexed as the ledger grows (a soak records hundreds of thousands of effects).
  const index = new Map<string, number>();
  let indexed = 0;
  const effectCount = (id: string, action: string) => {
    for (; indexed < ledger.effects.length; indexed++) { const e = ledger.effects[indexed]!; const k = `${e.id}\u0000${e.action}`; index.set(k, (index.get(k) ?? 0) + 1); }
    return index.get(`${id}\u0000${action}`) ?? 0;
  };
  // The gap lasts until a node is subscribed again: at least 3 s after the restart, longer when the
  // harness saw the nodes come back later than that (a loaded machine).
  const brokerGap = (at: number) => windows.some((w) => w.kind === 'broker' && at >= w.from && at <= w.to + Math.max(3000, (w.recoveredMs ?? 0) + 1000));
  // What each accepted request must have caused once.
  const expected: Array<{ s: Sent; action: string }> = [];
  let mqttInBrokerGap = 0;
  for (const s of load.sent.filter(accepted)) {
    if (s.kind === 'order') expected.push({ s, action: 'Charge' });
    else if (s.kind === 'slow') expected.push({ s, action: 'Finish' });
    else if (s.kind === 'approve' && load.resumed.has(s.id)) expected.push({ s, action: 'Approved' });
    else if (s.kind === 'mqtt') { if (brokerGap(s.at)) mqttInBrokerGap++; else expected.push({ s, action: 'Record' }); }
  }
  // Accepted durable runs get the drain to finish.
  const end = Date.now() + c.drainMs;
  const missing = () => expected.filter((x) => effectCount(x.s.id, x.action) === 0);
  while (missing().length && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  const mqttLostAtKill: string[] = [];
  const killedSoonAfter = (at: number) => windows.some((w) => (w.kind === 'kill' || w.kind === 'pause') && w.from >= at && w.from <= at + 5000);
  const lost = missing().filter((x) => {
    if (x.s.kind === 'mqtt' && killedSoonAfter(x.s.at)) { mqttLostAtKill.push(x.s.id); return false; }
    return true;
  }).map((x) => `${x.s.kind} ${x.s.id} (${x.action}, accepted ${x.s.status} by ${x.s.node})`);

  // Duplicates: an effect recorded twice is documented when a kill, pause, store outage or hang was in
  // flight between the first one's start (its action began up to a few seconds before) and the second.
  const seen = new Map<string, Array<{ at: number; key?: string }>>();
  for (const e of ledger.effects) {
    const k = `${e.id}\u0000${e.action}`;
    const list = seen.get(k);
    if (list) list.push(e); else seen.set(k, [e]);
  }
  const duplicated: string[] = [];
  const duplicatedByFaults: string[] = [];
  const duplicatedSameKey: string[] = [];
  for (const [k, es] of seen) {
    if (es.length < 2) continue;
    const [id, action] = k.split('\u0000');
    const ats = es.map((e) => e.at);
    const first = Math.min(...ats); const last = Math.max(...ats);
    const cut = windows.some((w) => w.kind !== 'broker' && w.from <= last && w.to + c.leaseMs >= first - 5000);
    const sameKey = es[0]!.key !== undefined && es.every((e) => e.key === es[0]!.key);
    (cut ? duplicatedByFaults : sameKey ? duplicatedSameKey : duplicated).push(`${action} of ${id} x${es.length}`);
  }

  // The store after the drain: nothing held past its lease, nothing suspended past its wake.
  const stuck: string[] = [];
  const failed: string[] = [];
  let claimedTicks = 0;
  const client = new pg.Client({ connectionString: c.db.url });
  await client.connect();
  try {
    const s = `"${c.db.schema}"`;
    const held = await client.query(`SELECT id, iface FROM ${s}.runs WHERE status = 'running' AND lease_until < now() - interval '1 second'`);
    for (const r of held.rows) stuck.push(`${r.iface} ${r.id} running past its lease`);
    const late = await client.query(`SELECT id, iface FROM ${s}.runs WHERE status = 'suspended' AND wake_at < now() - interval '5 seconds'`);
    for (const r of late.rows) stuck.push(`${r.iface} ${r.id} suspended past its wake time`);
    // Where a lost run ended, as the store has it (the request id is in its recorded request).
    for (const entry of lost.splice(0)) {
      const id = /^\S+ (\S+)/.exec(entry)?.[1];
      const r = id ? await client.query(`SELECT status, state->'response' AS response, left(state::text, 4000) AS full FROM ${s}.runs WHERE state::text LIKE $1 LIMIT 1`, [`%${id}"%`]) : undefined;
      const row = r?.rows[0];
      const said = row ? `: the store has it ${row.status}${process.env.PW_FAULTS_DEBUG ? ` ${row.full}` : row.response ? ` ${JSON.stringify(row.response).slice(0, 300)}` : ''}` : ': not in the store';
      // A run the rules ended as failed after every attempt is finished; one that never ended is lost.
      const steps = row?.full && row.status === 'failed' ? String(row.full) : '';
      (steps && !/no callback arrived before the wait's timeout|the run crashed/.test(steps) ? failed : lost).push(entry + said);
    }
    // Ticks: one per minute in the ledger, and as many as the store's claims of the schedule.
    const claimed = await client.query(`SELECT count(*)::int AS n FROM ${s}.ticks WHERE schedule LIKE '%tick'`);
    claimedTicks = claimed.rows[0].n as number;
  } finally {
    await client.end();
  }
  const ticks: string[] = [];
  const perMinute = new Map<number, number>();
  for (const t of ledger.ticks) perMinute.set(Math.floor(t / 60_000), (perMinute.get(Math.floor(t / 60_000)) ?? 0) + 1);
  for (const [m, n] of perMinute) if (n > 1) ticks.push(`minute ${new Date(m * 60_000).toISOString()} ticked ${n} times`);
  if (claimedTicks !== ledger.ticks.length) ticks.push(`the store claimed ${claimedTicks} ticks, the ledger saw ${ledger.ticks.length}`);

  // ws: a publish accepted at `at` is owed to every subscriber subscribed from before it until the
  // grace after it; outside any fault window a miss is a violation.
  const wsMissed: string[] = [];
  let wsMissedInFaults = 0;
  const wsMissedByFault: Record<string, number> = {};
  for (const s of load.sent.filter((x) => x.kind === 'announce' && accepted(x))) {
    for (const sub of load.subscribers) {
      const there = sub.windows.some(([a, b]) => a < s.at - 200 && b > s.at + WS_GRACE_MS) || (sub.since !== undefined && sub.since < s.at - 200);
      if (!there || sub.got.has(s.id)) continue;
      // Only a fault that can touch this delivery excuses a miss: the store (the bus between nodes is
      // Postgres), or a kill or pause of the publishing or the subscribed node.
      const touches = (w: FaultWindow) => w.kind === 'store' || ((w.kind === 'kill' || w.kind === 'pause') && (w.node === s.node || w.node === sub.node));
      const fault = windows.find((w) => touches(w) && w.from - 500 <= s.at + WS_GRACE_MS && s.at <= w.to + (w.recoveredMs ?? 0) + WS_GRACE_MS);
      if (fault) { wsMissedInFaults++; const k = `${fault.kind}${fault.node ? ` ${fault.node}` : ''} via ${s.node} to ${sub.node}`; wsMissedByFault[k] = (wsMissedByFault[k] ?? 0) + 1; } else wsMissed.push(`${s.id} (published via ${s.node}) missed by the subscriber on ${sub.node}`);
    }
  }

  // Memory: the drain is over (nothing owed is still running); a settle for timers and sockets to
  // close, then each node's retained memory against its baseline.
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const memory: Invariants['memory'] = [];
  const memoryNotBack: string[] = [];
  // Each node is its own process: their full GCs run side by side.
  const afters = await Promise.all(c.nodes.map((n) => c.probe(n)));
  for (const [i, n] of c.nodes.entries()) {
    const baseline = c.baseline.get(n.name);
    const after = afters[i];
    memory.push({ node: n.name, ...(baseline ? { baseline } : {}), ...(after ? { after } : {}) });
    if (!baseline || !after) { memoryNotBack.push(`${n.name}: no ${baseline ? 'reading after the load' : 'baseline'} (the probe did not answer)`); continue; }
    const m = memoryBack(baseline, after);
    if (!m.ok) memoryNotBack.push(`${n.name}: retained heap + external ${after.heapKb! + after.externalKb!} KiB after the load, ${m.grewKb} KiB above its baseline (allowed ${m.allowedKb})`);
  }

  const crashes = c.nodes.flatMap((n) => [...n.crashes, ...alarming(n)]);
  const inv = { lost, failed, mqttLostAtKill, duplicated, duplicatedByFaults, duplicatedSameKey, stuck, ticks, wsMissed, wsMissedInFaults, wsMissedByFault, mqttInBrokerGap, crashes, memory, memoryNotBack, ok: false };
  inv.ok = !lost.length && !duplicated.length && !stuck.length && !ticks.length && !wsMissed.length && !crashes.length && !memoryNotBack.length;
  return inv;
}

function alarming(n: Node): string[] {
  return alarmingLines(n).map((l) => `${n.name}: ${l.slice(0, 300)}`);
}
