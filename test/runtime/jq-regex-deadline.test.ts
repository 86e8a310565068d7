// A jq program with a catastrophic regex in a config fails at SERVICE__JQ_REGEX_TIMEOUT_MS in both
// paths, with the same response; ordinary regexes answer as before (runtime/jq/regex.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { runBoth } from '../support/run-both.ts';

afterEach(() => { delete process.env.SERVICE__JQ_REGEX_TIMEOUT_MS; });

const check = async (pattern: string, s: string) => (await runBoth(`
interfaces:
  x:
    show_error_detail: true
    actions:
      - name: A
        input: a|body|
        output: http
        assert:
          tests:
            - jq: '.s | test("${pattern}")'
              is_equal_to: true
          error_message: no match
`, 'x', { body: { s } })).response;

describe('regexes in config jq programs', () => {
  it('an ordinary pattern answers in both paths', async () => {
    expect((await check('a.c', 'xabcx')).body).toEqual({ s: 'xabcx' });
    expect((await check('a.c', 'xyz')).status).toBe(422);
  });

  it('a catastrophic pattern fails at the deadline with the same response in both paths', async () => {
    // 20 ms, well under the time the engine needs to reach its own backtracking bound (Oniguruma's
    // retry limit, about 10M steps): at 200 ms an idle machine reached that bound first in one path
    // ("retry-limit-in-match over") and the deadline in the other.
    process.env.SERVICE__JQ_REGEX_TIMEOUT_MS = '20';
    const r = await check('(a+)+$', `${'a'.repeat(40)}b`);
    // As any jq engine error in an assert: the assert fails (422) with the engine's message as detail.
    expect(r.status).toBe(422);
    expect(r.body).toEqual({ error: { status: 422, message: 'no match', action: 'A', detail: 'jq engine: the program did not finish within 20 ms (SERVICE__JQ_REGEX_TIMEOUT_MS; a regex can take exponential time)', data: { s: `${'a'.repeat(40)}b` } } });
  });
});
