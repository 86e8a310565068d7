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
    expect(JSON.parse(r.out).tests.map((t: { case: string; ok: boolean }) => [t.case, t.ok])).toEqual([
      ['three ticks, the second sees nothing new', true], ['each tick its own expectations, the second publishes nothing', true], ['ping', true],
    ]);
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

  it('ticks as a list: each entry\'s expect reads its own tick\'s answer and publishes; a failure names the tick', async () => {
    const { by } = await problems(`  - name: listed
    interface: poll
    schedule:
      from: "2026-03-01T00:00:00Z"
      ticks:
        - expect: { body_includes: { poll: 1 }, published: [] }
        - expect: { published: [ { mqtt: feed/new } ] }
        - {}
    http:
${items([1], [1], [1, 2])}
`, path);
    // Tick 1 published (published: [] says it must not); tick 2 found nothing new, so published
    // nothing, though tick 1 and tick 3 did: an entry reads its own tick only.
    expect(by.listed).toEqual([
      `published: expected nothing; captured: mqtt feed/new {"ids":[{"id":1}],"poll":1,"at":${sec('2026-03-01T00:10:00Z')}} (tick 1, 2026-03-01T00:10:00.000Z)`,
      'published: no mqtt message on feed/new; mqtt captured: none (tick 2, 2026-03-01T00:20:00.000Z)',
    ]);
  }, 60_000);

  it('a listed tick that was retried is checked on its last attempt, with everything its attempts published', async () => {
    const { by } = await problems(`  - name: retried tick
    interface: poll
    schedule:
      from: "2026-03-01T00:00:00Z"
      ticks:
        - expect: { body: { new: [ { id: 9 } ], poll: 1, at: 0 } }
        - expect: { status: 502 }
    http:
      - request: { url: https://feed.test/items }
        response: { status: 503 }
${items([9], [9])}
`, path);
    expect(by['retried tick']).toEqual([
      `body: at /at: expected 0, got ${sec('2026-03-01T00:11:00Z')} (tick 1, 2026-03-01T00:10:00.000Z, attempt 2)`,
      'status: expected 502, got 200: {"Items":{"items":[{"id":9}]},"Ticks":2} (tick 2, 2026-03-01T00:20:00.000Z)',
    ]);
  }, 60_000);

  it('a listed tick without expect (or with one without status) must answer below 400', async () => {
    const { by } = await problems(`  - name: must succeed
    interface: poll
    schedule:
      from: "2026-03-01T00:00:00Z"
      ticks: [ {}, {} ]
    http:
${items([1])}
      - request: { url: https://feed.test/items }
        response: { status: 500 }
        times: 2
`, path);
    expect(by['must succeed']).toEqual([
      expect.stringMatching(/^status 502 \(set expect\.status to expect a failure\): .* \(tick 2, 2026-03-01T00:20:00\.000Z, attempt 2\)$/),
    ]);
  }, 60_000);

  it('published: [] of a case says nothing was published in any tick', async () => {
    const { by } = await problems(`  - name: quiet
    interface: poll
    schedule: { from: "2026-03-01T00:00:00Z", ticks: 1 }
    http:
${items([4])}
    expect: { published: [] }
`, path);
    expect(by.quiet).toEqual([`published: expected nothing; captured: mqtt feed/new {"ids":[{"id":4}],"poll":1,"at":${sec('2026-03-01T00:10:00Z')}}`]);
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

  it('ticks as a list: an unknown field in an entry, an expect beside the list, a jq that does not compile, a ticks that is neither: each at its place', async () => {
    copyFileSync(config, join(dir, 'feed.yaml'));
    const f = join(dir, 'feed.tests.yaml');
    writeFileSync(f, `cases:
  - name: a
    interface: poll
    schedule:
      ticks:
        - expect: { status: 200 }
        - expct: { status: 200 }
`);
    const r = await runTests([join(dir, 'feed.yaml')], {});
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${f}:7:11: error: unknown field "expct" in cases.0.schedule.ticks.1`);
    writeFileSync(f, `cases:
  - name: b
    interface: poll
    schedule:
      ticks:
        - {}
        - expect: { jq: ".a ==" , published: [ { mqtt: x, value: 1 } ] }
    expect: { status: 200 }
  - name: c
    interface: poll
    schedule: { ticks: three }
  - name: d
    interface: poll
    schedule: { ticks: [] }
`);
    const r2 = await runTests([join(dir, 'feed.yaml')], {});
    expect(r2.code).toBe(1);
    expect(r2.err).toContain(`${f}:11:24: error: cases.1.schedule.ticks must be a number of ticks (1–1000) or a list with one entry per tick ({ expect: ... } or {})`);
    expect(r2.err).toContain(`${f}:14:24: error: cases.2.schedule.ticks must NOT have fewer than 1 items`);
    writeFileSync(f, `cases:
  - name: b
    interface: poll
    schedule:
      ticks:
        - {}
        - expect: { jq: ".a ==" , published: [ { mqtt: x, value: 1 } ] }
    expect: { status: 200 }
`);
    const r3 = await runTests([join(dir, 'feed.yaml')], {});
    expect(r3.code).toBe(1);
    expect(r3.err).toContain(`${f}:8:5: error: with schedule.ticks as a list, each tick has its own expect`);
    expect(r3.err).toContain(`${f}:7:25: error: jq does not compile`);
    expect(r3.err).toContain(`${f}:7:59: error: value and labels are for metric entries`);
    expect(r3.err).not.toContain('✓');
  }, 60_000);
});
