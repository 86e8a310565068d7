// JSONPath match() and search() run on the linear-time engine (re2js), in both paths: a catastrophic
// pattern answers at once on a long input (on a backtracking engine `(a+)+$` against 40,000 a's and
// a b would not finish), including a pattern read from the request. RFC 9535 / I-Regexp semantics
// are kept (the vendored CTS in cts.test.ts stays at 100%); the cases below pin the edges.
import { describe, expect, it } from 'vitest';
import { compileJsonPath } from '../../compiler/jsonpath/compile.ts';
import * as jp from '../../runtime/jsonpath/ops.ts';
import { jsonPathAll } from '../../runtime/jsonpath/query.ts';
import { runBoth } from '../support/run-both.ts';

const evil = `${'a'.repeat(40_000)}b`;
const extract = (path: string) => `
interfaces:
  pick:
    actions:
      - name: Pick
        input: a|body|
        output: http
        post_transforms:
          - extract_with_json_path: "${path}"
`;
const both = (path: string, doc: unknown) => {
  const compiled = compileJsonPath(path);
  expect(compiled, path).not.toBeNull();
  const fast = (new Function('jp', `'use strict'; return (${compiled!.code.text});`)(jp) as (d: unknown) => unknown[])(doc);
  const interpreted = jsonPathAll(path, doc);
  expect(fast, path).toEqual(interpreted);
  return interpreted;
};

describe('JSONPath regex functions on a linear-time engine', () => {
  it('answer promptly for a catastrophic pattern on a long input, in both paths, request to response', async () => {
    const body = { items: [{ name: evil }, { name: 'aaaa' }, { name: 'xa' }] };
    const m = await runBoth(extract("$.items[?match(@.name, '(a+)+')].name"), 'pick', { body });
    expect(m.response.status).toBe(200);
    expect(m.response.body).toEqual(['aaaa']);
    const s = await runBoth(extract("$.items[?search(@.name, '(a+)+$')].name"), 'pick', { body });
    expect(s.response.body).toEqual(['aaaa', 'xa']);
  }, 30_000);

  it('a pattern taken from the document is data and runs on the same engine', async () => {
    const body = { pattern: '(a|aa)+$', items: [{ name: evil }, { name: 'baa' }] };
    const r = await runBoth(extract('$.items[?search(@.name, $.pattern)].name'), 'pick', { body });
    expect(r.response.body).toEqual(['baa']);
  }, 30_000);

  it('keeps RFC 9535 / I-Regexp semantics', () => {
    const doc = ['ab', 'abc', 'a\nb', 'a\rb', 'a\u2028b', 'a😀b', 'A1', 7, null, 'x.y', 'a^b'];
    // match() is a whole-string match; search() finds a substring.
    expect(both("$[?match(@, 'ab')]", doc)).toEqual(['ab']);
    expect(both("$[?search(@, 'ab')]", doc)).toEqual(['ab', 'abc']);
    // `.` is any character but \n and \r (RFC 9485 §5); a surrogate pair is one character.
    expect(both("$[?match(@, 'a.b')]", doc)).toEqual(['a\u2028b', 'a😀b', 'a^b']);
    expect(both("$[?match(@, 'x\\\\.y')]", doc)).toEqual(['x.y']);
    expect(both("$[?match(@, '[.]')]", ['.', 'a'])).toEqual(['.']);
    // Unicode categories; an explicit ^ or $ anchors, as the CTS expects.
    expect(both("$[?match(@, '\\\\p{Lu}\\\\p{Nd}')]", doc)).toEqual(['A1']);
    expect(both("$[?match(@, '^ab.*')]", doc)).toEqual(['ab', 'abc']);
    // Not an I-Regexp (\d, a backreference, lookahead), not a string, or a non-string subject: false.
    expect(both("$[?match(@, '\\\\d')]", ['1'])).toEqual([]);
    expect(both("$[?search(@, '(a)\\\\1')]", ['aa'])).toEqual([]);
    expect(both("$[?search(@, '(?=a)')]", ['a'])).toEqual([]);
    expect(both('$[?match(@, 1)]', ['1'])).toEqual([]);
    expect(both("$[?match(@, '7')]", doc)).toEqual([]);
  });
});
