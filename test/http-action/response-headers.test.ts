// Response headers as the action outcome exposes them: lower-case names (a copy made only for a name
// that needs one), repeated values joined, set-cookie joined with newlines.
import { describe, expect, it } from 'vitest';
import { flattenHeaders } from '../../runtime/actions/http/response-meta.ts';

describe('flattenHeaders', () => {
  it('lower-cases names wherever their capitals are, and keeps lower-case ones as they are', () => {
    expect(flattenHeaders({ 'Content-Type': 'a', 'x-ID': 'b', etag: 'c', 'X-\u00c4': 'd' })).toEqual({ 'content-type': 'a', 'x-id': 'b', etag: 'c', 'x-\u00e4': 'd' });
  });

  it('joins repeated values, merges names that differ in case, skips absent ones', () => {
    expect(flattenHeaders({ vary: ['a', 'b'], Vary: 'c', 'set-cookie': ['x=1; Expires=Wed, 21 Oct 2026', 'y=2'], gone: undefined }))
      .toEqual({ vary: 'a, b, c', 'set-cookie': 'x=1; Expires=Wed, 21 Oct 2026\ny=2' });
  });
});

it('flattenHeaders copies the usual headers (one lower-case name each, strings) as they are, into an object of its own', () => {
  const h = { 'content-type': 'application/json', 'content-length': '12', date: 'Fri, 27 Nov 2026 22:00:00 GMT', 'x-a': 'b, c' };
  const out = flattenHeaders(h);
  expect(out).toEqual(h);
  expect(out).not.toBe(h);
  expect(Object.keys(out)).toEqual(Object.keys(h));
  expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  // A mixed object still goes name by name: the array joined, the name lowered.
  expect(flattenHeaders({ 'x-a': 'b', Via: ['1.1 a', '1.1 b'] })).toEqual({ 'x-a': 'b', via: '1.1 a, 1.1 b' });
});
