// The hub's flush policy (hub.ts): after a flush, the next waits as long as that flush lasted (share
// 0.5), so publishes that keep coming leave together, each socket's frames in one write; a lone
// publish (after a flush of one message, the event loop idle since) is not held; with share 1 every
// turn that published flushes. Either way each subscriber gets every message once, in publish
// order, as the same bytes. The subscribers here record the writes they are given.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Hub, type Subscriber } from '../../runtime/realtime/hub.ts';
import { textFrame } from '../../runtime/realtime/wire.ts';
import { wsLimitsFrom } from '../../runtime/realtime/limits.ts';

/** The hub's clock: a flush "lasts" as long as a slow subscriber moves it on. */
const clock = { ms: 0 };
const now = () => clock.ms;
/** The loop's idle time by the hub's reading: it moves only when a test says the loop waited for work. */
const loop = { idleMs: 0 };
const idle = () => loop.idleMs;
/** A subscriber that records each write; `slow` makes its first write take that long (a long flush). */
function recorder(slow = 0): Subscriber & { writes: Buffer[] } {
  const writes: Buffer[] = [];
  return {
    writes,
    send() { throw new Error('fan-out goes through sendFrames'); },
    sendFrames(bytes) {
      writes.push(bytes);
      if (slow && writes.length === 1) clock.ms += slow;
    },
  };
}

const turn = () => new Promise((r) => setImmediate(r));
const frameOf = (n: number) => textFrame(JSON.stringify({ type: 'ap_message', channel: 'c', data: n }));
/** Resolves once `s` has been written `count` times (polling one turn at a time, up to ~2 s). */
async function writes(s: { writes: Buffer[] }, count: number): Promise<Buffer[]> {
  for (let i = 0; i < 2000 && s.writes.length < count; i++) await new Promise((r) => setTimeout(r, 1));
  return s.writes;
}

describe('hub flushes', () => {
  it('sends a publish after a quiet spell at the end of its turn', async () => {
    const hub = new Hub();
    const s = recorder();
    hub.subscribe(s, 'c');
    hub.deliver('c', 0);
    expect(s.writes).toEqual([]);
    await turn();
    expect(s.writes).toEqual([frameOf(0)]);
  });

  it('holds publishes after a long flush and writes them together, in order, the same bytes to every subscriber', async () => {
    const hub = new Hub(0.5, now, idle);
    const slow = recorder(400), other = recorder();
    hub.subscribe(slow, 'c');
    hub.subscribe(other, 'c');
    hub.deliver('c', 0);
    await turn(); // the first flush lasts 400 ms by the hub's clock: the next waits 400 ms (a real timer)
    expect(slow.writes).toEqual([frameOf(0)]);
    for (let n = 1; n <= 3; n++) { hub.deliver('c', n); await turn(); }
    expect(other.writes).toHaveLength(1);
    const together = Buffer.concat([1, 2, 3].map(frameOf));
    expect(await writes(other, 2)).toEqual([frameOf(0), together]);
    expect(slow.writes).toEqual([frameOf(0), together]);
  });

  it('sends a lone publish at the end of its turn, inside the rest: after a flush of one message, the loop idle since', async () => {
    const hub = new Hub(0.5, now, idle);
    const slow = recorder(), other = recorder();
    const write = slow.sendFrames;
    slow.sendFrames = (bytes) => { write(bytes); clock.ms += 400; }; // every flush lasts 400 ms
    hub.subscribe(slow, 'c');
    hub.subscribe(other, 'c');
    hub.deliver('c', 0);
    await turn(); // a 400 ms flush: a rest of 400 ms, kept while the loop stays busy
    hub.deliver('c', 1);
    await turn();
    expect(other.writes).toEqual([frameOf(0)]);
    expect(await writes(other, 2)).toEqual([frameOf(0), frameOf(1)]);
    loop.idleMs += 0.5; // the loop found nothing to do after the second flush (one message, 400 ms)
    hub.deliver('c', 2);
    hub.deliver('c', 3); // read in the same turn: the same flush
    await turn();
    const both = Buffer.concat([2, 3].map(frameOf));
    expect(other.writes).toEqual([frameOf(0), frameOf(1), both]);
    // That flush carried two: publishes are piling up, so the next is held for the rest however
    // idle the loop has been.
    loop.idleMs += 0.5;
    hub.deliver('c', 4);
    await turn();
    expect(other.writes).toHaveLength(3);
    expect(await writes(other, 4)).toEqual([frameOf(0), frameOf(1), both, frameOf(4)]);
    expect(slow.writes).toEqual(other.writes);
  });

  it('with share 1, flushes every turn that published', async () => {
    const hub = new Hub(1, now, idle);
    const slow = recorder(400), other = recorder();
    hub.subscribe(slow, 'c');
    hub.subscribe(other, 'c');
    hub.deliver('c', 0);
    await turn();
    for (let n = 1; n <= 3; n++) { hub.deliver('c', n); await turn(); }
    expect(other.writes).toEqual([0, 1, 2, 3].map(frameOf));
    expect(slow.writes).toEqual(other.writes);
  });

  it('keeps each subscriber to its own channels when held publishes span several', async () => {
    const hub = new Hub(0.5, now, idle);
    const slow = recorder(400), a = recorder(), b = recorder();
    hub.subscribe(slow, 'a');
    hub.subscribe(a, 'a');
    hub.subscribe(b, 'b');
    hub.subscribe(slow, 'b');
    hub.deliver('a', 0);
    await turn();
    hub.deliver('b', 1);
    await turn();
    hub.deliver('a', 2);
    const f = (channel: string, n: number) => textFrame(JSON.stringify({ type: 'ap_message', channel, data: n }));
    expect(await writes(a, 2)).toEqual([f('a', 0), f('a', 2)]);
    expect(b.writes).toEqual([f('b', 1)]);
    expect(slow.writes).toEqual([f('a', 0), Buffer.concat([f('b', 1), f('a', 2)])]);
  });
});

describe('SERVICE__WS_FANOUT_SHARE', () => {
  it('is a percentage of the loop, 50 by default, 1 to 100; anything else is refused by name', () => {
    const share = (v?: string) => wsLimitsFrom(v === undefined ? {} : { SERVICE__WS_FANOUT_SHARE: v }).fanoutShare;
    expect(share()).toBe(0.5);
    expect(share('')).toBe(0.5);
    expect(share('100')).toBe(1);
    expect(share('25')).toBe(0.25);
    expect(share('1')).toBe(0.01);
    for (const bad of ['250', '0', 'half', '12.5', '-5']) {
      expect(() => share(bad)).toThrow(`SERVICE__WS_FANOUT_SHARE=${bad} must be a whole number between 1 and 100`);
    }
    // The other WebSocket settings follow the same rule, without an upper bound.
    expect(() => wsLimitsFrom({ SERVICE__WS_PING_MS: '0' })).toThrow('SERVICE__WS_PING_MS=0 must be a whole number of at least 1');
    expect(wsLimitsFrom({ SERVICE__WS_MAX_FRAME_BYTES: '2048' }).maxFrameBytes).toBe(2048);
  });

  it('a malformed value stops serve with one line naming it', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pw-fanout-share-')), 'hello.yaml');
    writeFileSync(file, 'interfaces:\n  hello:\n    actions:\n      - { name: A, input: hi, output: http }\n');
    const r = spawnSync(process.execPath, [resolve('bin/pipewright.mjs'), 'serve', file, '--port', '0'], {
      env: { ...process.env, SERVICE__WS_FANOUT_SHARE: '0' }, encoding: 'utf8', timeout: 30_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe('pipewright: SERVICE__WS_FANOUT_SHARE=0 must be a whole number between 1 and 100');
  }, 40_000);
});
