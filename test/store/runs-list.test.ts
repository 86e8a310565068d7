// The runs list and cancel in both stores (GET /_ap/runs, POST /_ap/runs/<id>/cancel): the same
// runs, written the ways the server writes them, list the same in memory and on Postgres (order,
// filters, pages, a cursor walk while newer runs arrive), and a cancel is taken by exactly one of
// two nodes racing it, or racing a resume with the run's token.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../runtime/store/memory.ts';
import { PostgresStore } from '../../runtime/store/postgres.ts';
import type { RunState } from '../../runtime/run-state.ts';
import type { RunEntry, RunQuery, Store } from '../../runtime/store-types.ts';
import { finishedRecord } from '../../runtime/server/run-record.ts';
import { makeRedactor } from '../../runtime/values/redact.ts';
import { runState } from './runs.ts';
import { admin, dropSchema, freshSchema, PG_URL, truncateAll, twoNodes } from './pg.ts';

const schema = freshSchema('runslist');
let pair: [PostgresStore, PostgresStore];
beforeAll(async () => { pair = twoNodes(schema); await Promise.all(pair.map((s) => s.init())); });
afterAll(async () => { await Promise.all(pair.map((s) => s.close())); await dropSchema(schema); });

const iso = (min: number, ms = 0) => new Date(Date.UTC(2026, 11, 6, 12, min, 0, ms)).toISOString();
const redact = makeRedactor(['s3cret-value']);

/** A finished run's record as the after-run hook writes it (memory: into the ring). */
async function finished(s: Store, st: RunState, status: number): Promise<void> {
  const r = finishedRecord({ state: st, response: { status, headers: {}, body: { n: st.id } } }, redact);
  if (!s.keepFinished?.(r.state, r.json)) await s.saveRun(r.state, r.json);
}

/** Twelve runs of two configs, three interfaces, four triggers and every status; two pairs start in
 *  the same millisecond (the id breaks the tie). */
async function seed(s: Store): Promise<void> {
  const kinds = ['http', 'schedule', 'mqtt', 'ws'] as const;
  for (let i = 0; i < 12; i++) {
    const st = runState(`run-${String(i).padStart(2, '0')}`, {
      config: i % 3 === 0 ? 'billing' : 'orders', iface: ['a', 'b', 'c'][i % 3]!, trigger: kinds[i % 4]!,
      startedAt: iso(i === 5 || i === 9 ? 4 : i), status: 'running',
    });
    if (i % 4 === 0) await s.suspend({ state: { ...st, status: 'suspended', wake: { reason: 'callback', action: 'Approve', at: iso(30) } }, wakeAt: new Date(iso(30)), token: `tok-${i}` });
    else if (i % 4 === 1) await finished(s, { ...st, status: 'failed' }, 502);
    else if (i % 4 === 2) await finished(s, { ...st, status: 'succeeded' }, 200);
    else await s.saveRun({ ...st, status: 'failed', response: { status: 500, headers: {}, body: null } }); // the resumer's way
  }
}

/** What both stores must agree on (updatedAt is each store's own clock). */
const shown = (rows: RunEntry[]) => rows.map(({ updatedAt: _u, ...e }) => e);

async function walk(s: Store, q: Omit<RunQuery, 'limit' | 'before'>, limit: number): Promise<string[][]> {
  const pages: string[][] = [];
  let before: RunQuery['before'];
  for (;;) {
    const rows = await s.listRuns({ ...q, limit, ...(before ? { before } : {}) });
    if (!rows.length) return pages;
    pages.push(rows.map((r) => r.id));
    before = { startedAt: rows.at(-1)!.startedAt, id: rows.at(-1)!.id };
  }
}

const QUERIES: Array<Omit<RunQuery, 'limit'>> = [
  {}, { config: 'billing' }, { iface: 'b' }, { config: 'orders', iface: 'c' }, { status: 'failed' }, { status: 'suspended' },
  { trigger: 'mqtt' }, { since: iso(3) }, { until: iso(4) }, { since: iso(4), until: iso(4, 1) }, { status: 'succeeded', trigger: 'schedule' },
];

describe('the runs list: memory and Postgres agree', () => {
  const mem = new MemoryStore();
  beforeAll(async () => { await truncateAll(schema); await seed(mem); await seed(pair[0]); });

  it('newest first by start, the id breaking ties; every field as written', async () => {
    const rows = await mem.listRuns({ limit: 100 });
    expect(rows.map((r) => r.id)).toEqual(['run-11', 'run-10', 'run-08', 'run-07', 'run-06', 'run-09', 'run-05', 'run-04', 'run-03', 'run-02', 'run-01', 'run-00']);
    expect(shown(await pair[0].listRuns({ limit: 100 }))).toEqual(shown(rows));
    expect(rows.find((r) => r.id === 'run-08')).toMatchObject({ config: 'orders', iface: 'c', trigger: 'http', status: 'suspended', startedAt: iso(8), wake: { reason: 'callback', action: 'Approve', at: iso(30) } });
    expect(rows.find((r) => r.id === 'run-01')).toMatchObject({ status: 'failed', httpCode: 502, trigger: 'schedule' });
    expect(rows.find((r) => r.id === 'run-03')).toMatchObject({ status: 'failed', httpCode: 500 });
    expect(rows.find((r) => r.id === 'run-08')!.httpCode).toBeUndefined();
  });

  it.each(QUERIES.map((q) => [JSON.stringify(q), q] as const))('filter %s: the same rows, and the same pages of 2', async (_n, q) => {
    const m = await mem.listRuns({ ...q, limit: 100 });
    expect(shown(await pair[0].listRuns({ ...q, limit: 100 }))).toEqual(shown(m));
    const pages = await walk(mem, q, 2);
    expect(pages.flat()).toEqual(m.map((r) => r.id));
    expect(await walk(pair[0], q, 2)).toEqual(pages);
  });

  it('a filter matching nothing, and limit, in both', async () => {
    for (const s of [mem, pair[0]]) {
      expect(await s.listRuns({ config: 'nope', limit: 10 })).toEqual([]);
      expect((await s.listRuns({ limit: 3 })).map((r) => r.id)).toEqual(['run-11', 'run-10', 'run-08']);
    }
  });
});

describe.each(['memory', 'postgres'] as const)('%s', (kind) => {
  let s: Store;
  let other: Store;
  beforeEach(async () => {
    if (kind === 'memory') { s = other = new MemoryStore(); return; }
    await truncateAll(schema);
    [s, other] = pair;
  });

  it('a cursor walk while runs arrive: every run that was there shows once, newer ones never', async () => {
    for (let i = 0; i < 9; i++) await finished(s, runState(`old-${i}`, { startedAt: iso(10 + i), status: 'failed' }), 500);
    const first = await s.listRuns({ limit: 4 });
    expect(first.map((r) => r.id)).toEqual(['old-8', 'old-7', 'old-6', 'old-5']);
    // Newer runs, a run that finished late but started earlier, and a run changing status.
    for (let i = 0; i < 5; i++) await finished(other, runState(`new-${i}`, { startedAt: iso(40 + i), status: 'failed' }), 500);
    await finished(other, runState('late', { startedAt: iso(12, 500), status: 'failed' }), 500);
    let before = { startedAt: first.at(-1)!.startedAt, id: first.at(-1)!.id };
    const rest: string[] = [];
    for (;;) {
      const page = await s.listRuns({ limit: 4, before });
      if (!page.length) break;
      rest.push(...page.map((r) => r.id));
      before = { startedAt: page.at(-1)!.startedAt, id: page.at(-1)!.id };
    }
    expect(rest).toEqual(['old-4', 'old-3', 'late', 'old-2', 'old-1', 'old-0']);
  });

  it('cancel: a waiting run ends as given, once; its token then reads as cancelled; unknown and finished runs are told apart', async () => {
    await s.suspend({ state: runState('w', { wake: { reason: 'callback', action: 'Approve' } }), wakeAt: null, token: 'tok-w' });
    await finished(s, runState('done', { status: 'failed' }), 500);
    const end = (st: RunState): RunState => ({ ...st, status: 'cancelled', response: { status: 499, headers: {}, body: { cancelled: true } } });
    expect(await other.waitingToken('w')).toBe('tok-w');
    const r = await s.cancelRun('w', end);
    expect(await other.waitingToken('w')).toBeUndefined();
    expect(r.kind).toBe('cancelled');
    expect(r.kind === 'cancelled' && r.state).toMatchObject({ id: 'w', status: 'cancelled', response: { status: 499 } });
    expect(await other.cancelRun('w', end)).toEqual({ kind: 'not-waiting', status: 'cancelled' });
    expect(await s.cancelRun('done', end)).toEqual({ kind: 'not-waiting', status: 'failed' });
    expect(await s.cancelRun('nope', end)).toEqual({ kind: 'unknown' });
    expect(await other.claimToken('tok-w', new Date(), 'n')).toEqual({ kind: 'cancelled' });
    expect((await s.loadRun('w'))?.status).toBe('cancelled');
    expect(await s.countSuspended()).toBe(0);
    expect(await s.claimDue(new Date(Date.now() + 86_400_000), 10, 'n')).toEqual([]);
    expect((await s.listRuns({ status: 'cancelled', limit: 10 })).map((e) => [e.id, e.httpCode])).toEqual([['w', 499]]);
  });

  it('two nodes racing to cancel, and a cancel racing a resume: exactly one wins each time', async () => {
    const end = (st: RunState): RunState => ({ ...st, status: 'cancelled', response: { status: 499, headers: {}, body: null } });
    for (let i = 0; i < 10; i++) {
      await s.suspend({ state: runState(`c-${i}`), wakeAt: null, token: `tok-c-${i}` });
      const both = await Promise.all([s.cancelRun(`c-${i}`, end), other.cancelRun(`c-${i}`, end)]);
      expect(both.map((x) => x.kind).sort()).toEqual(['cancelled', 'not-waiting']);
      await s.suspend({ state: runState(`r-${i}`), wakeAt: null, token: `tok-r-${i}` });
      const [cancel, resume] = await Promise.all([s.cancelRun(`r-${i}`, end), other.claimToken(`tok-r-${i}`, new Date(), 'b')]);
      if (cancel.kind === 'cancelled') expect(resume).toEqual({ kind: 'cancelled' });
      else expect([cancel, resume.kind]).toEqual([{ kind: 'not-waiting', status: 'running' }, 'claimed']);
    }
  });
});

it('memory: a run whose record the ring forgot leaves the list with it', async () => {
  const s = new MemoryStore();
  // Records of ~1.9 MiB: the 8 MiB ring keeps the newest four.
  const big = 'x'.repeat(1_900_000);
  for (let i = 0; i < 6; i++) {
    const st = runState(`big-${i}`, { startedAt: iso(i), status: 'failed' });
    const r = finishedRecord({ state: st, response: { status: 500, headers: {}, body: big } }, redact);
    expect(s.keepFinished(r.state, r.json)).toBe(true);
  }
  const listed = (await s.listRuns({ limit: 100 })).map((e) => e.id);
  expect(listed).toEqual(['big-5', 'big-4', 'big-3', 'big-2']);
  for (const id of listed) expect(await s.loadRun(id)).toBeDefined();
  expect(await s.loadRun('big-1')).toBeUndefined();
});

it('postgres: migration 3 fills the list\'s columns of runs stored before it', async () => {
  const old = freshSchema('runsmig');
  const store = new PostgresStore({ url: PG_URL, schema: old });
  try {
    await store.init();
    await store.suspend({ state: runState('before', { trigger: 'mqtt', startedAt: iso(7), wake: { reason: 'delay', action: 'Later', at: iso(9) } }), wakeAt: new Date(iso(9)), token: null });
    await store.saveRun(runState('done-before', { startedAt: iso(6), status: 'failed', response: { status: 502, headers: {}, body: null } }));
    // Back to version 2: as a database written by the previous release.
    await admin((c) => c.query(`DROP INDEX "${old}".runs_recent, "${old}".runs_recent_iface, "${old}".runs_recent_status, "${old}".runs_recent_trigger, "${old}".runs_finished_age;
      ALTER TABLE "${old}".runs DROP COLUMN trigger, DROP COLUMN started_at, DROP COLUMN http_code; DELETE FROM "${old}".schema_version WHERE version = 3`));
    await store.init();
    expect(shown(await store.listRuns({ limit: 10 }))).toEqual([
      { id: 'before', config: 'cfg', iface: 'iface', trigger: 'mqtt', status: 'suspended', startedAt: iso(7), wake: { reason: 'delay', action: 'Later', at: iso(9) } },
      { id: 'done-before', config: 'cfg', iface: 'iface', trigger: 'test', status: 'failed', startedAt: iso(6), httpCode: 502 },
    ]);
  } finally {
    await store.close();
    await dropSchema(old);
  }
});
