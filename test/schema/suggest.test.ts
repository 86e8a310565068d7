import { describe, expect, it } from 'vitest';
import { closedForm, markerRoot, scanMarkers } from '../../compiler/markers/scan.ts';
import { closest, editDistance } from '../../compiler/source/suggest.ts';

describe('suggestions', () => {
  it('counts an adjacent swap as one edit', () => {
    expect(editDistance('retyr', 'retry')).toBe(1);
    expect(editDistance('abc', 'abc')).toBe(0);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });

  it('picks the closest candidate, ignoring case, and nothing when far', () => {
    expect(closest('retyr', ['retry', 'replayable', 'timeout'])).toBe('retry');
    expect(closest('Retry', ['retry'])).toBe('retry');
    expect(closest('post_transform', ['post_transforms', 'post_log'])).toBe('post_transforms');
    expect(closest('zebra', ['retry', 'http'])).toBeUndefined();
    expect(closest('ab', ['xy'])).toBeUndefined();
  });
});

describe('markers', () => {
  it('finds closed and unclosed markers', () => {
    expect(scanMarkers('x a|body| y a|Fetch::status|')).toEqual([
      { start: 2, body: 'body', closed: true },
      { start: 12, body: 'Fetch::status', closed: true },
    ]);
    expect(scanMarkers('id=a|body')).toEqual([{ start: 3, body: 'body', closed: false }]);
    expect(scanMarkers('count(a|Items|)')).toEqual([{ start: 6, body: 'Items', closed: true }]);
  });

  it('needs a non-word character before a|, and closes outside default(...) on the same line', () => {
    expect(scanMarkers('data|length')).toEqual([]);
    expect(scanMarkers('a|X->default("p|q")| b')).toEqual([{ start: 0, body: 'X->default("p|q")', closed: true }]);
    expect(scanMarkers('a|body\nx|')).toEqual([{ start: 0, body: 'body', closed: false }]);
  });

  it('names and closed forms', () => {
    expect(markerRoot('Fetch::body.id')).toEqual({ root: 'Fetch', named: true, valid: true });
    expect(markerRoot('body->interface')).toEqual({ root: 'body', named: false, valid: true });
    expect(markerRoot('uuid->default(a->b)')).toEqual({ root: 'uuid', named: false, valid: true });
    // Action names may contain spaces (a|My Action|); line breaks and empty names never parse.
    expect(markerRoot('my action').valid).toBe(true);
    expect(markerRoot('my\naction').valid).toBe(false);
    expect(markerRoot('::x').valid).toBe(false);
    expect(closedForm('body&x=1')).toBe('a|body|');
    expect(closedForm('Fetch->orders->0 tail')).toBe('a|Fetch->orders->0|');
  });
});
