// Regexes in jq programs run in the deep worker with a deadline (runtime/jq/regex.ts): a catastrophic
// pattern fails naming the limit, the worker is replaced, ordinary regex programs keep their answers.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initJq, JqError, jqAll } from '../../runtime/jq/engine.ts';
import { mayRunRegex, regexTimeoutMs } from '../../runtime/jq/regex.ts';
import { compileJq } from '../../compiler/jq/compile.ts';

beforeAll(() => initJq());
afterEach(() => { delete process.env.SERVICE__JQ_REGEX_TIMEOUT_MS; });

describe('jq regex deadline', () => {
  it('gives up a catastrophic pattern at the deadline, then answers again', () => {
    process.env.SERVICE__JQ_REGEX_TIMEOUT_MS = '20'; // well under the ~200–350 ms an idle machine needs to reach the engine's own retry limit
    const t = Date.now();
    let err: unknown;
    try { jqAll('test("(a+)+$")', `${'a'.repeat(40)}b`); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(JqError);
    expect((err as Error).message).toBe('jq engine: the program did not finish within 20 ms (SERVICE__JQ_REGEX_TIMEOUT_MS; a regex can take exponential time)');
    expect(Date.now() - t).toBeLessThan(20_000); // bounded (the exact figure depends on the load)
    expect(jqAll('test("a.c")', 'xabcx')).toEqual([true]); // a fresh worker
  });

  it('keeps the answers of ordinary regex programs', () => {
    expect(jqAll('test("a.c")', 'xabcx')).toEqual([true]);
    expect(jqAll('[match("(?<x>b)").captures[0].name]', 'abc')).toEqual([['x']]);
    expect(jqAll('sub("a"; "b")', 'aa')).toEqual(['ba']);
    expect(jqAll('gsub("(?<l>[a-z])"; "<\\(.l)>")', 'ab1')).toEqual(['<a><b>1']);
    expect(jqAll('capture("(?<y>[0-9]+)-(?<m>[0-9]+)")', '2024-05')).toEqual([{ y: '2024', m: '05' }]);
    expect(jqAll('[splits(", *")]', 'a, b,c')).toEqual([['a', 'b', 'c']]);
    expect(() => jqAll('test("(")', 'a')).toThrow(JqError); // the engine's own error, as before
  });

  it('reaches the worker only from programs that name a regex builtin; the compiler leaves them to the engine', () => {
    for (const p of ['test("a")', 'match("a")', 'capture("a")', 'scan("a")', 'split("a"; null)', 'splits("a")', 'sub("a"; "b")', 'gsub("a"; "b")']) {
      expect(mayRunRegex(p)).toBe(true);
      expect(compileJq(p)).toBeNull(); // so the fast path calls jqAll too
    }
    expect(mayRunRegex('.a | ascii_downcase')).toBe(false);
    // a field or a variable of a builtin's name is not a call: such programs stay on the main thread
    expect(mayRunRegex('.test | .match')).toBe(false);
    expect(mayRunRegex('. as $sub | $sub')).toBe(false);
    expect(mayRunRegex('.a | test("x")')).toBe(true);
  });

  it('bounds the setting', () => {
    expect(regexTimeoutMs({})).toBe(1000);
    expect(regexTimeoutMs({ SERVICE__JQ_REGEX_TIMEOUT_MS: '50' })).toBe(50);
    for (const bad of ['0', '5', '60001', 'x', '1.5']) expect(() => regexTimeoutMs({ SERVICE__JQ_REGEX_TIMEOUT_MS: bad })).toThrow(/SERVICE__JQ_REGEX_TIMEOUT_MS/);
  });
});
