// `schedule:` cases (issue 32: schedules run on a virtual clock in tests): a scheduled interface runs
// at its next ticks as the scheduler runs it — trigger schedule, no request, the clock at the tick (a
// JWT's iat shows it) — on one store, so only_new and state carry from tick to tick; captures
// accumulate; a failed tick is retried after the schedule's backoff; problems name their tick; the
// loader refuses what cannot be, with file:line:col. On both paths.
import { mkdtempSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { caseProblems, runTests, type TestOptions } from '../support/test-cli.ts';
import { appendCase, runCase } from '../../cli/from-run.ts';
import { loadPlans } from '../../cli/load-plans.ts';
import type { RunDetail } from '../../runtime/testing/index.ts';

const config = 'test/testing/fixtures/feed.yaml';
const dir = mkdtempSync(join(tmpdir(), 'pw-ticks-'));

afterEach(() => vi.restoreAllMocks());

/** The problems of each case by name (json reporter), for a cases text run against feed.yaml. */
async function problems(cases: string, o: TestOptions = {}) {
  const file = join(dir, `c${Math.random().toString(36).slice(2)}.tests.yaml`);
  writeFileSync(file, `secrets: { STAMP_KEY: a-stamp-key-of-at-least-thirty-two-bytes }\ncases:\n${cases}`);
  return caseProblems([config], { ...o, cases: file });
}

const items = (...lists: number[][]) => lists.map((ids) => `      - request: { url: https://feed.test/items }
        response: { body: { items: [${ids.map((id) => `{ id: ${id} }`).join(', ')}] } }`).join('\n');

/** Epoch seconds of an ISO time (the JWT's iat). */
const sec = (iso: string) => Date.parse(iso) / 1000;

const PATHS = [{}, { 'no-fastpath': true }] as const;

describe.each(PATHS)('schedule: cases %o', (path) => {
  it("the fixture's cases pass: three ticks, only_new and a state counter carried across them, MQTT captures accumulated", async () => {
    const r = await runTests([config], { ...path, reporter: 'json' });
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out).tests.map((t: { case: string; ok: boolean }) => [t.case, t.ok])).toEqual([['three ticks, the second sees nothing new', true], ['ping', true]]);
  }, 60_000);

  it('runs each tick at its time with the state of the ticks before; the answer is the last tick\'s; published covers every tick', async () => {
    const { by } = await problems(`  - name: ticks
    interface: poll
    schedule: { from: "2026-03-01T00:00:00Z", ticks: 3 }
    http:
${items([1, 2], [2], [2, 3])}
    expect:
      body: { new: [ { id: 3 } ], poll: 3, at: 0 }
      published:
        - mqtt: feed/new
        - mqtt: feed/new
        - mqtt: feed/new
`, path);
    // The second tick saw nothing new: only_new skipped what depends on it, so two messages, not three.
    expect(by.ticks).toEqual([
      `body: at /at: expected 0, got ${sec('2026-03-01T00:30:00Z')}`,
      `published: no mqtt message on feed/new after the one matched before; mqtt captured: mqtt feed/new {"ids":[{"id":1},{"id":2}],"poll":1,"at":${sec('2026-03-01T00:10:00Z')}}; mqtt feed/new {"ids":[{"id":3}],"poll":3,"at":${sec('2026-03-01T00:30:00Z')}}`,
    ]);
  }, 60_000);

  it('without from, starts at the fixed case epoch (2026-01-01T00:00:00Z): the same times on every run', async () => {
    const { by } = await problems(`  - name: epoch
    interface: poll
    schedule: { ticks: 1 }
    http:
${items([5])}
    expect: { body: { new: [ { id: 5 } ], poll: 1, at: ${sec('2026-01-01T00:10:00Z')} } }
`, path);
    expect(by.epoch).toEqual([]);
  }, 60_000);

  it("retries a failed tick after the schedule's backoff (max_attempts 2, 60 s) on the virtual clock", async () => {
    const { by } = await problems(`  - name: retried
    interface: poll
    schedule: { from: "2026-03-01T00:00:00Z", ticks: 1 }
    http:
      - request: { url: https://feed.test/items }
        response: { status: 503 }
${items([9])}
    expect: { body: { new: [ { id: 9 } ], poll: 1, at: ${sec('2026-03-01T00:11:00Z')} } }
`, path);
    expect(by.retried).toEqual([]);
  }, 60_000);

  it('names the tick (and attempt) of what went wrong in it', async () => {
    const { by } = await problems(`  - name: short
    interface: poll
    schedule: { from: "2026-03-01T00:00:00Z", ticks: 2 }
    http:
${items([1])}
    expect: { status: 502 }
`, path);
    expect(by.short).toEqual([
      'request without a recording: GET https://feed.test/items (tick 2, 2026-03-01T00:20:00.000Z)',
      'request without a recording: GET https://feed.test/items (tick 2, 2026-03-01T00:20:00.000Z, attempt 2)',
    ]);
  }, 60_000);
});

describe('pipewright test --from-run of a tick\'s run', () => {
  it('writes a case of that tick (schedule, no request), which passes: the run sees the tick\'s time', async () => {
    const plan = (await loadPlans([config], false))![0]!;
    const iat = sec('2026-03-01T00:20:00Z');
    // A tick's run as the runs API shows it: started a few ms after its tick.
    const d = {
      id: 'r-tick', config: 'feed', interface: 'poll', status: 'succeeded', started_at: '2026-03-01T00:20:00.004Z', trigger: 'schedule',
      request: { method: 'SCHEDULE', path: '/poll', params: {}, headers: {}, body: null },
      actions: [{ name: 'Items', outcome: 'succeeded', attempts: 1, http_status: 200, data: { items: [{ id: 4 }] } }],
      outcome: { http_code: 200, body: { new: [{ id: 4 }], poll: 1, at: iat } },
    } as unknown as RunDetail;
    const made = runCase(plan, d);
    expect(made.case.schedule).toEqual({ from: '2026-03-01T00:10:00Z', ticks: 1 });
    expect(made.case.request).toBeUndefined();
    const f = join(dir, 'from-run.tests.yaml');
    writeFileSync(f, 'secrets: { STAMP_KEY: a-stamp-key-of-at-least-thirty-two-bytes }\ncases: []\n');
    expect(appendCase(f, made.case, made.comment)).toBeUndefined();
    const r = await runTests([config], { cases: f });
    expect(r.err).toContain('✓ feed.poll › run r-tick');
    expect(r.code).toBe(0);
  }, 60_000);
});

describe('schedule: in the cases file', () => {
  it('is refused, with file:line:col, on an interface without a schedule, beside request:, with a from that is no time, over 1000 ticks', async () => {
    copyFileSync(config, join(dir, 'feed.yaml'));
    const f = join(dir, 'feed.tests.yaml');
    writeFileSync(f, `cases:
  - name: a
    interface: ping
    schedule: { ticks: 2 }
  - name: b
    interface: poll
    schedule: { from: "March 1st", ticks: 2 }
    request: { body: { x: 1 } }
`);
    const r = await runTests([join(dir, 'feed.yaml')], {});
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${f}:4:5: error: interface "ping" has no schedule: a case runs its ticks only when the interface has \`schedule: { cron: ... }\``);
    expect(r.err).toContain(`${f}:7:23: error: schedule.from must be an ISO 8601 time with its zone, such as 2026-03-01T00:00:00Z; got "March 1st"`);
    expect(r.err).toContain(`${f}:8:5: error: a scheduled run receives no request (the scheduler sends none): a case with schedule: has no request:`);
    expect(r.err).not.toContain('✓');
    writeFileSync(f, `cases:\n  - name: c\n    interface: poll\n    schedule: { ticks: 1001 }\n`);
    const r2 = await runTests([join(dir, 'feed.yaml')], {});
    expect(r2.code).toBe(1);
    expect(r2.err).toContain(`${f}:4:24: error: cases.0.schedule.ticks must be <= 1000`);
  }, 60_000);
});
