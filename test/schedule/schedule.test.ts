// Cron triggers against a shared store: a tick runs the interface once across nodes, failed ticks
// are retried with backoff, bad schedules stop the start, and a missed tick runs once on start.
// Each test has its own store and its own upstream path, so they run side by side (mostly waiting).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools } from '../../runtime/actions/http/pool.ts';
import type { RunResult } from '../../runtime/exec/run.ts';
import type { Json } from '../../runtime/ir.ts';
import type { Plan } from '../../runtime/plan.ts';
import { systemClock } from '../../runtime/services.ts';
import { MemoryStore } from '../../runtime/store/memory.ts';
import { backoffMs, cronOf, scheduleSettings, SCHEDULE_NS, startSchedules, type ScheduleOptions } from '../../runtime/schedule/index.ts';
import { countingUpstream, json } from '../support/counting-upstream.ts';
import { planOf, testEnv } from '../support/plans.ts';

type Up = Awaited<ReturnType<typeof countingUpstream>>;
let up: Up;
const failFirst = new Map<string, number>(); // path -> how many first hits answer 503
beforeAll(async () => {
  up = await countingUpstream({
    '/*': (req, res, n) => json(res, n <= (failFirst.get(req.url!.split('?')[0]!) ?? 0) ? 503 : 200, { n }),
  });
});
afterAll(async () => { await up.close(); await closeHttpPools(); });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(cond: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!cond()) { if (Date.now() > end) throw new Error('timed out waiting'); await sleep(20); }
}

let seq = 0;
/** A config whose interface calls /<path>, with the given schedule (set after compiling: the schema
 *  allows 5 fields only; a function is called then, so a tick aimed at "soon" is not spent compiling). */
async function planWith(path: string, schedule: Record<string, unknown> | (() => Record<string, unknown>), mode: 'compiled' | 'interpreted' = 'interpreted'): Promise<Plan> {
  const plan = await planOf(`sched${++seq}.yaml`, mode, `
interfaces:
  job:
    schedule: { cron: "* * * * *", enabled: true }
    actions:
      - name: Call
        url: a|var::API|${path}
`);
  plan.interfaces[0]!.schedule = (typeof schedule === 'function' ? schedule() : schedule) as Json;
  return plan;
}

function opts(store: MemoryStore, extra: Partial<ScheduleOptions> = {}): ScheduleOptions {
  return { store, env: testEnv({ API: up.url }), services: { clock: systemClock }, node: 'n1', seconds: true, log: () => {}, ...extra };
}

/** A cron firing once a minute, at the first whole second at least 300 ms from now (the scheduler
 *  is started at once after). */
const onceSoon = () => `${new Date(Math.ceil((Date.now() + 300) / 1000) * 1000).getUTCSeconds()} * * * * *`;

describe.concurrent('schedules', () => {
  it.for(['compiled', 'interpreted'] as const)('an every-second cron runs the interface with no request (%s)', async (mode, { expect }) => {
    const plan = await planWith(`/every-${mode}`, { cron: '* * * * * *', enabled: true }, mode);
    const results: RunResult[] = [];
    const s = startSchedules([plan], opts(new MemoryStore(), { afterRun: (_p, _i, r) => { results.push(r); } }));
    await until(() => results.length >= 2);
    await s.stop();
    expect(s.ticks).toBe(results.length);
    expect(results[0]!.state).toMatchObject({ trigger: 'schedule', status: 'succeeded', request: { body: null, params: {}, headers: {} } });
  });

  it('two nodes on one store run each tick exactly once', async ({ expect }) => {
    const store = new MemoryStore();
    const claims: Array<[string, number, boolean]> = [];
    const claimTick = store.claimTick.bind(store);
    store.claimTick = async (k, at, node) => { const won = await claimTick(k, at, node); claims.push([k, at.getTime(), won]); return won; };
    const plan = await planWith('/shared', { cron: '* * * * * *', enabled: true });
    const before = up.count('/shared');
    const a = startSchedules([plan], opts(store, { node: 'a' }));
    const b = startSchedules([plan], opts(store, { node: 'b' }));
    // Three ticks, each tried by both nodes (the next one is most of a second away).
    const tried = () => new Set(claims.map(([, t]) => t).filter((t) => claims.filter(([, at]) => at === t).length === 2));
    await until(() => tried().size >= 3, 10_000);
    await Promise.all([a.stop(), b.stop()]);
    const ticks = new Set(claims.map(([, t]) => t));
    expect(ticks.size).toBeGreaterThanOrEqual(3);
    for (const t of ticks) expect(claims.filter(([, at, won]) => at === t && won)).toHaveLength(1);
    expect(claims.filter(([, at]) => ticks.has(at))).toHaveLength(ticks.size * 2); // both nodes tried each
    expect(a.ticks + b.ticks).toBe(ticks.size);
    expect(up.count('/shared') - before).toBe(ticks.size);
  });

  it('a disabled schedule never runs', async ({ expect }) => {
    const plan = await planWith('/disabled', { cron: '* * * * * *', enabled: false });
    const s = startSchedules([plan], opts(new MemoryStore()));
    await sleep(1300);
    await s.stop();
    expect(s.ticks).toBe(0);
    expect(up.count('/disabled')).toBe(0);
  });

  it('retries a failed tick with exponential backoff, up to max_attempts', async ({ expect }) => {
    failFirst.set('/flaky', 2);
    const plan = await planWith('/flaky', () => ({ cron: onceSoon(), enabled: true, max_attempts: 4, retry_backoff_seconds: 0.2, retry_backoff_multiplier: 2 }));
    const s = startSchedules([plan], opts(new MemoryStore()));
    await until(() => up.count('/flaky') >= 3, 8000);
    await sleep(700); // no fourth attempt: the third succeeded
    await s.stop();
    const at = up.hits.filter((h) => h.path === '/flaky').map((h) => h.at);
    expect(at).toHaveLength(3);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(190);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(390);
    expect(s.ticks).toBe(1);
  });

  it('gives up after max_attempts and caps the backoff', async ({ expect }) => {
    failFirst.set('/down', 99);
    const logs: string[] = [];
    const store = new MemoryStore();
    // Uncapped, the second wait would be 0.05 × 60 = 3 s: far from the 0.1 s cap, on a loaded machine too.
    const plan = await planWith('/down', () => ({ cron: onceSoon(), enabled: true, max_attempts: 3, retry_backoff_seconds: 0.05, retry_backoff_multiplier: 60, max_backoff_seconds: 0.1 }));
    const s = startSchedules([plan], opts(store, { log: (m) => logs.push(m) }));
    await until(() => logs.some((m) => m.includes('failed after 3 attempts')), 10_000);
    await s.stop();
    const at = up.hits.filter((h) => h.path === '/down').map((h) => h.at);
    expect(at).toHaveLength(3);
    expect(at[2]! - at[1]!).toBeLessThan(1500); // capped at 0.1 s, not 3 s
    const key = `retry:${plan.name}.job`;
    const pending = (await store.stateGet(SCHEDULE_NS, [key], Date.now()))[key];
    expect(pending).toMatchObject({ attempt: 3 }); // persisted, so a restart can resume it
  });

  it('computes backoff with the documented defaults', ({ expect }) => {
    const d = scheduleSettings({ cron: '* * * * *', enabled: true })!;
    expect(d).toMatchObject({ maxAttempts: 1, backoffSeconds: 60, multiplier: 2, maxBackoffSeconds: 3600, timezone: 'UTC' });
    expect([1, 2, 3, 7, 8].map((n) => backoffMs(d, n))).toEqual([60_000, 120_000, 240_000, 3_600_000, 3_600_000]);
  });

  it('refuses an invalid cron, a seconds field outside tests, and an unknown timezone', async ({ expect }) => {
    const bad = async (schedule: Record<string, unknown>, seconds = false) => {
      const plan = await planWith('/never', schedule);
      return () => startSchedules([plan], opts(new MemoryStore(), { seconds }));
    };
    expect(await bad({ cron: '61 * * * *', enabled: true })).toThrow(/schedule of sched\d+\.job: invalid cron "61 \* \* \* \*"/);
    expect(await bad({ cron: '* * * * * *', enabled: true })).toThrow(/has 6 fields; expected 5/);
    expect(await bad({ cron: '* * * *', enabled: true }, true)).toThrow(/has 4 fields/);
    expect(await bad({ cron: '0 9 * * 1', enabled: true, timezone: 'Mars/Olympus' })).toThrow(/unknown timezone "Mars\/Olympus"/);
    const ok = await bad({ cron: '0 9 * * mon-fri', enabled: true, timezone: 'Europe/Paris' });
    expect(ok).not.toThrow();
  });

  it('reads the cron in its timezone', ({ expect }) => {
    const s = scheduleSettings({ cron: '0 9 * * *', enabled: true, timezone: 'Europe/Paris' })!;
    expect(cronOf('c.i', s).nextRun(new Date('2031-01-10T12:00:00Z'))!.toISOString()).toBe('2031-01-11T08:00:00.000Z');
    expect(cronOf('c.i', s).nextRun(new Date('2031-07-10T12:00:00Z'))!.toISOString()).toBe('2031-07-11T07:00:00.000Z');
  });
});

describe.concurrent('missed ticks on start', () => {
  // An hourly job; "now" is 10:30, so the latest tick before now is 10:00.
  const now = Date.parse('2031-03-04T10:30:00Z');
  const prev = Date.parse('2031-03-04T10:00:00Z');
  const hourly = { cron: '0 * * * *', enabled: true };

  async function start(store: MemoryStore, path: string, plan?: Plan, node = 'n1') {
    plan ??= await planWith(path, hourly);
    const s = startSchedules([plan], opts(store, { now: () => now, node, seconds: false }));
    return { s, plan };
  }

  it('runs the single latest missed tick once, never a backlog', async ({ expect }) => {
    const store = new MemoryStore();
    const plan = await planWith('/missed', hourly);
    await store.stateSet(SCHEDULE_NS, `last:${plan.name}.job`, prev - 72 * 3_600_000, undefined, now); // down for 3 days
    const { s } = await start(store, '/missed', plan);
    await until(() => up.count('/missed') >= 1);
    await sleep(200);
    await s.stop();
    expect(up.count('/missed')).toBe(1);
    expect(s.ticks).toBe(1);
    expect((await store.stateGet(SCHEDULE_NS, [`last:${plan.name}.job`], now))[`last:${plan.name}.job`]).toBe(prev);
    // Claimed like any tick: another start finds nothing to catch up.
    const again = await start(store, '/missed', plan, 'n2');
    await sleep(300);
    await again.s.stop();
    expect(up.count('/missed')).toBe(1);
  });

  it('two nodes starting together catch the missed tick up once', async ({ expect }) => {
    const store = new MemoryStore();
    const plan = await planWith('/missed2', hourly);
    await store.stateSet(SCHEDULE_NS, `last:${plan.name}.job`, prev - 3_600_000, undefined, now);
    const [a, b] = await Promise.all([start(store, '', plan, 'a'), start(store, '', plan, 'b')]);
    await until(() => up.count('/missed2') >= 1);
    await sleep(300);
    await Promise.all([a.s.stop(), b.s.stop()]);
    expect(up.count('/missed2')).toBe(1);
    expect(a.s.ticks + b.s.ticks).toBe(1);
  });

  it('does not fire on a first deploy (no tick was ever run)', async ({ expect }) => {
    const { s } = await start(new MemoryStore(), '/fresh');
    await sleep(400);
    await s.stop();
    expect(up.count('/fresh')).toBe(0);
  });

  it("resumes the latest tick's pending retry, once", async ({ expect }) => {
    const store = new MemoryStore();
    const plan = await planWith('/resumed', { ...hourly, max_attempts: 3 });
    await store.stateSet(SCHEDULE_NS, `last:${plan.name}.job`, prev, undefined, now);
    await store.stateSet(SCHEDULE_NS, `retry:${plan.name}.job`, { tick: prev, attempt: 2, due: now - 1000 }, undefined, now);
    await store.claimTick(`${plan.name}.job`, new Date(prev), 'crashed');
    const [a, b] = await Promise.all([start(store, '', plan, 'a'), start(store, '', plan, 'b')]);
    await until(() => up.count('/resumed') >= 1);
    await sleep(300);
    await Promise.all([a.s.stop(), b.s.stop()]);
    expect(up.count('/resumed')).toBe(1);
    expect(await store.claimTick(`${plan.name}.job#2`, new Date(prev), 'x')).toBe(false);
  });
});
