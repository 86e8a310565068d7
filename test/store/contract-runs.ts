// The store contract, part 1: suspended runs, claims, ticks, captures. `nodes()` gives two stores
// sharing the same data (two pools for Postgres, one instance for memory).
import { expect, it } from 'vitest';
import type { Store } from '../../runtime/store-types.ts';
import { at, runState, T0 } from './runs.ts';

export function runContract(nodes: () => [Store, Store]): void {
  it('suspends, loads and counts runs; saveRun ends the suspension', async () => {
    const [s] = nodes();
    await s.suspend({ state: runState('r1'), wakeAt: at(1000), token: null });
    await s.suspend({ state: runState('r2'), wakeAt: null, token: 'tok-r2' });
    expect(await s.countSuspended()).toBe(2);
    const loaded = await s.loadRun('r1');
    expect(loaded).toEqual(runState('r1'));
    expect(JSON.stringify(loaded)).toBe(JSON.stringify(runState('r1'))); // key order survives
    await s.saveRun(runState('r1', { status: 'succeeded' }));
    expect(await s.countSuspended()).toBe(1);
    expect((await s.loadRun('r1'))?.status).toBe('succeeded');
    expect(await s.claimDue(at(5000), 10, 'n')).toEqual([]);
    expect(await s.loadRun('nope')).toBeUndefined();
    await expect(s.saveRun(runState('r3'))).rejects.toThrow(/suspend/);
  });

  it('claimDue takes due runs in wake order, up to the limit, once', async () => {
    const [s] = nodes();
    for (const [id, ms] of [['late', 3000], ['early', 1000], ['mid', 2000], ['future', 9000]] as const) {
      await s.suspend({ state: runState(id), wakeAt: at(ms), token: null });
    }
    await s.suspend({ state: runState('cb'), wakeAt: null, token: 'tok-cb' });
    expect((await s.claimDue(at(5000), 2, 'n')).map((r) => r.id)).toEqual(['early', 'mid']);
    expect((await s.claimDue(at(5000), 10, 'n')).map((r) => r.id)).toEqual(['late']);
    expect(await s.claimDue(at(5000), 10, 'n')).toEqual([]);
    expect(await s.countSuspended()).toBe(2);
  });

  it('claimDue hands each of 50 due runs to exactly one of two nodes', async () => {
    const [a, b] = nodes();
    for (let i = 0; i < 50; i++) await a.suspend({ state: runState(`due-${i}`), wakeAt: at(i), token: null });
    const claimed: string[] = [];
    const drain = async (s: Store, node: string) => {
      for (;;) {
        const got = await s.claimDue(at(100), 7, node);
        if (!got.length) return;
        claimed.push(...got.map((r) => r.id));
      }
    };
    await Promise.all([drain(a, 'a'), drain(b, 'b'), drain(a, 'a2'), drain(b, 'b2')]);
    expect(claimed.length).toBe(50);
    expect(new Set(claimed).size).toBe(50);
    expect(await a.countSuspended()).toBe(0);
  });

  it('claimToken: claimed once, then resumed; unknown; expired', async () => {
    const [a, b] = nodes();
    await a.suspend({ state: runState('w1'), wakeAt: at(10_000), token: 'tok-1' });
    const both = await Promise.all([a.claimToken('tok-1', at(1), 'a'), b.claimToken('tok-1', at(1), 'b')]);
    expect(both.map((c) => c.kind).sort()).toEqual(['claimed', 'resumed']);
    const won = both.find((c) => c.kind === 'claimed');
    expect(won?.kind === 'claimed' && won.state.id).toBe('w1');
    // Resumed stays resumed after the run finishes and after its old timeout.
    await a.saveRun(runState('w1', { status: 'succeeded' }));
    expect((await b.claimToken('tok-1', at(20_000), 'b')).kind).toBe('resumed');
    expect((await a.claimToken('no-such-token', at(1), 'a')).kind).toBe('unknown');
    // The wait timed out: still parked (the scheduler will take it), then taken by the scheduler.
    await a.suspend({ state: runState('w2'), wakeAt: at(500), token: 'tok-2' });
    expect((await a.claimToken('tok-2', at(500), 'a')).kind).toBe('expired');
    expect((await a.claimDue(at(600), 10, 'a')).map((r) => r.id)).toEqual(['w2']);
    expect((await b.claimToken('tok-2', at(700), 'b')).kind).toBe('expired');
    // No timeout: claimable whenever.
    await a.suspend({ state: runState('w3'), wakeAt: null, token: 'tok-3' });
    expect((await b.claimToken('tok-3', at(1e9), 'b')).kind).toBe('claimed');
  });

  it('a token parks one run only', async () => {
    const [s] = nodes();
    await s.suspend({ state: runState('t1'), wakeAt: null, token: 'shared' });
    await expect(s.suspend({ state: runState('t2'), wakeAt: null, token: 'shared' })).rejects.toThrow();
  });

  it('claimTick: exactly one caller per (schedule, tick) across nodes', async () => {
    const [a, b] = nodes();
    const tick = at(60_000);
    const wins = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).claimTick('every-minute', tick, `n${i}`)));
    expect(wins.filter(Boolean).length).toBe(1);
    expect(await a.claimTick('every-minute', at(120_000), 'a')).toBe(true);
    expect(await b.claimTick('other-schedule', tick, 'b')).toBe(true);
    expect(await b.claimTick('every-minute', tick, 'b')).toBe(false);
  });

  it('captures round trip, newest first, filtered and limited', async () => {
    const [s] = nodes();
    const base = { config: 'cfg', iface: 'i1', status: 'succeeded' as const, replayable: true, state: runState('c', { status: 'succeeded' }) };
    await s.saveCapture({ ...base, id: 'c1', at: T0.toISOString() });
    await s.saveCapture({ ...base, id: 'c2', at: at(1000).toISOString(), status: 'failed', replayable: false, notReplayableBecause: 'SendMail' });
    await s.saveCapture({ ...base, id: 'c3', at: at(2000).toISOString(), iface: 'i2' });
    await s.saveCapture({ ...base, id: 'c4', at: at(3000).toISOString(), config: 'other' });
    expect(await s.getCapture('c2')).toEqual({ ...base, id: 'c2', at: at(1000).toISOString(), status: 'failed', replayable: false, notReplayableBecause: 'SendMail' });
    expect(await s.getCapture('c1')).toEqual({ ...base, id: 'c1', at: T0.toISOString() });
    expect(await s.getCapture('none')).toBeUndefined();
    expect((await s.listCaptures({})).map((c) => c.id)).toEqual(['c4', 'c3', 'c2', 'c1']);
    expect((await s.listCaptures({ config: 'cfg' })).map((c) => c.id)).toEqual(['c3', 'c2', 'c1']);
    expect((await s.listCaptures({ config: 'cfg', iface: 'i1', limit: 1 })).map((c) => c.id)).toEqual(['c2']);
  });
}
