// The short fault test (the full harness is `npm run bench:faults`): three compiled nodes on one
// Postgres (through a proxy that cuts it away) and a private Mosquitto, under a steady mix of HTTP
// runs with retries, suspending delays, callback waits, MQTT-triggered runs and ws publishes, while a
// node is SIGKILLed and restarted, the upstream hangs past the calls' timeout, the store goes away
// past the delays' wake time and the lease, a node is SIGSTOPped past its lease, and the broker
// restarts, one fault after the other. The ledger then says: nothing accepted was lost, nothing ran
// twice but what a fault cut in flight, nothing is stuck, no node crashed, and each node's retained
// memory came back to its baseline.
import { describe, expect, it } from 'vitest';
import { memoryBack, MEMORY_SLACK_KB } from '../../bench/faults/invariants.ts';
import type { Memory } from '../../bench/faults/nodes.ts';
import { runFaults } from '../../bench/faults/run.ts';

describe('faults under load', () => {
  it('three nodes survive a kill, a hang, a store outage, a pause past the lease and a broker restart', async () => {
    const r = await runFaults({
      nodes: 3, durationMs: 14_500, workers: 4, pauseMs: 30, leaseSecs: 2, drainMs: 25_000,
      // The hang outlasts Charge's 1.5 s timeout, the outage the slow runs' 1.5 s delay and the 2 s
      // lease, the pause the lease. A fault waits for the one before it to be over (a slow restart
      // delays the next instead of overlapping it).
      faults: [
        { kind: 'kill', atMs: 2000, forMs: 500, node: 1 },
        { kind: 'hang', atMs: 3500, forMs: 2000 },
        { kind: 'store', atMs: 6000, forMs: 2500 },
        { kind: 'pause', atMs: 9500, forMs: 3000, node: 2 },
        { kind: 'broker', atMs: 13_000, forMs: 1000 },
      ],
    });
    const i = r.invariants;
    expect(r.windows.map((w) => w.kind).sort()).toEqual(['broker', 'hang', 'kill', 'pause', 'store']);
    expect(r.figures.accepted).toBeGreaterThan(100);
    expect(r.figures.durableCompleted).toBeGreaterThan(10);
    expect({ lost: i.lost, duplicated: i.duplicated, stuck: i.stuck, ticks: i.ticks, wsMissed: i.wsMissed, crashes: i.crashes, memoryNotBack: i.memoryNotBack }).toEqual({ lost: [], duplicated: [], stuck: [], ticks: [], wsMissed: [], crashes: [], memoryNotBack: [] });
    // Every node's memory was read after a full GC at its baseline and after the load.
    expect(i.memory.map((m) => [m.node, typeof m.baseline?.heapKb, typeof m.after?.heapKb])).toEqual([0, 1, 2].map((n) => [`node${n}`, 'number', 'number']));
  }, 240_000);
});

describe('memoryBack', () => {
  const m = (heapKb: number, externalKb: number): Memory => ({ heapKb, externalKb, rssKb: 1e6, fds: 40 });
  it('allows max(8 MiB, 25% of the baseline) of retained heap + external growth, RSS not judged', () => {
    expect(memoryBack(m(20_000, 4000), m(20_000 + MEMORY_SLACK_KB, 4000))).toEqual({ grewKb: MEMORY_SLACK_KB, allowedKb: 8192, ok: true });
    expect(memoryBack(m(20_000, 4000), m(20_000 + MEMORY_SLACK_KB, 4001)).ok).toBe(false);
    expect(memoryBack(m(60_000, 4000), m(60_000, 4000 + 16_000))).toEqual({ grewKb: 16_000, allowedKb: 16_000, ok: true });
    expect(memoryBack(m(60_000, 4000), m(60_000, 4000 + 16_001)).ok).toBe(false);
  });
});
