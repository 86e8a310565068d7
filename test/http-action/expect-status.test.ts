import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpPools, http } from '../../runtime/actions/http.ts';
import { describeExpectation, statusMatches } from '../../runtime/actions/http/expect-status.ts';
import { ctx, startUpstream } from './helpers.ts';
import { check, withActions } from '../schema/helpers.ts';
import { runBoth } from '../support/run-both.ts';

describe('statusMatches', () => {
  it('defaults to 2xx or 304', () => {
    for (const s of [200, 201, 299, 304]) expect(statusMatches(undefined, s)).toBe(true);
    for (const s of [199, 300, 301, 404, 500]) expect(statusMatches(undefined, s)).toBe(false);
    expect(statusMatches(null, 204)).toBe(true);
  });
  it('matches numbers, numeric strings, classes, any and lists', () => {
    expect(statusMatches(404, 404)).toBe(true);
    expect(statusMatches(404, 200)).toBe(false);
    expect(statusMatches('404', 404)).toBe(true);
    expect(statusMatches('4xx', 418)).toBe(true);
    expect(statusMatches('4XX', 500)).toBe(false);
    expect(statusMatches('3xx', 302)).toBe(true);
    expect(statusMatches('5xx', 503)).toBe(true);
    expect(statusMatches('any', 599)).toBe(true);
    expect(statusMatches([200, '404', '5xx'], 503)).toBe(true);
    expect(statusMatches([200, '404'], 201)).toBe(false);
    expect(statusMatches([], 200)).toBe(false);
  });
  it('never matches unknown strings (including retry-only transport classes)', () => {
    for (const m of ['timeout', 'connect', 'ok', '2x', '']) expect(statusMatches(m, 200)).toBe(false);
  });
  it('describes expectations for messages', () => {
    expect(describeExpectation(undefined)).toBe('2xx or 304');
    expect(describeExpectation(404)).toBe('404');
    expect(describeExpectation([200, 404, '5xx'])).toBe('200, 404 or 5xx');
  });
});

describe('expect_status on real responses', () => {
  let up: Awaited<ReturnType<typeof startUpstream>>;
  beforeAll(async () => {
    up = await startUpstream({
      '/s': (req, res) => { res.statusCode = Number(new URL(req.url!, 'http://x').searchParams.get('c')); res.end(); },
    });
  });
  afterAll(async () => { await closeHttpPools(); await up.close(); });

  const cases: [unknown, number, boolean][] = [
    [undefined, 200, true], [undefined, 304, true], [undefined, 302, false], [undefined, 404, false],
    [404, 404, true], ['404', 404, true], [404, 200, false], ['2xx', 201, true], ['3xx', 301, true],
    ['4xx', 409, true], ['5xx', 502, true], ['5xx', 200, false], ['any', 500, true], ['any', 404, true],
    [[200, '404'], 404, true], [[200, '4xx'], 503, false],
    // Matchers are whole words (the interpreter may be handed unvalidated YAML): no sign, no extra digits.
    ['+404', 404, false], ['15xx', 500, false], ['5xxx', 500, false],
    [' 4XX ', 418, true], [' Any ', 503, true], [' 404 ', 404, true],
    // Entries that are neither numbers nor text never match.
    [[true, null], 200, false],
  ];
  for (const [expectStatus, code, ok] of cases) {
    it(`expect_status ${JSON.stringify(expectStatus)} with ${code} → ${ok ? 'ok' : 'fails'}`, async () => {
      const out = await http({ url: `${up.url}/s?c=${code}`, expect_status: expectStatus }, ctx());
      expect(out.ok).toBe(ok);
      expect(out.status).toBe(code);
      if (!ok) expect(out.failure).toEqual({ kind: 'status', status: code });
    });
  }
  it('a null expect_status is the default, also in the error text', async () => {
    const out = await http({ url: `${up.url}/s?c=404`, expect_status: null }, ctx());
    expect(out.ok).toBe(false);
    expect(out.error).toMatch(/^HTTP 404 from GET \S+ \(expected 2xx or 304\)$/);
  });
});

describe('expect_status in a config', () => {
  it('check refuses strings that are not a code, a class or any', () => {
    for (const bad of ['"+404"', '15xx', '"404"', '[200, 5xxx]']) {
      const d = check(withActions(`      - name: A\n        url: https://example.test/x\n        http: { expect_status: ${bad} }\n`));
      expect(d.map((x) => x.severity)).toEqual(['error']);
      expect(d[0]!.message).toMatch(/expected a status code such as 404, a class such as 2xx, 4xx or 5xx, or any/);
    }
  });
});

describe('expect_status in a run: the error detail says what was expected', () => {
  let up: Awaited<ReturnType<typeof startUpstream>>;
  beforeAll(async () => {
    up = await startUpstream({ '/s': (req, res) => { res.statusCode = Number(new URL(req.url!, 'http://x').searchParams.get('c')); res.end(); } });
  });
  afterAll(async () => { await closeHttpPools(); await up.close(); });

  const detailOf = async (expectStatus: string | undefined, code: number) => {
    const http = expectStatus === undefined ? '' : `\n        http: { expect_status: ${expectStatus} }`;
    const r = await runBoth(`
interfaces:
  x:
    show_error_detail: true
    actions:
      - name: A
        url: a|var::API|/s?c=${code}${http}
`, 'x', {}, { API: up.url });
    return (r.response.body as { error: { detail: string } }).error.detail.replace(/ from GET \S+/, '');
  };

  it.each([
    [undefined, 302, 'HTTP 302 (expected 2xx or 304)'],
    ['4xx', 500, 'HTTP 500 (expected 4xx)'],
    ['[200, 404, 5xx]', 409, 'HTTP 409 (expected 200, 404 or 5xx)'],
    ['[]', 200, 'HTTP 200 (expected nothing (empty expect_status))'],
  ])('expect_status %s, answer %i: %s', async (e, code, detail) => {
    expect(await detailOf(e, code)).toBe(detail);
  });
});
