import { describe, expect, it } from 'vitest';
import { durationMs as parseDuration } from '../../runtime/values/duration.ts';

describe('parseDuration', () => {
  it('reads numbers as milliseconds and unit suffixes', () => {
    expect(parseDuration(250)).toBe(250);
    expect(parseDuration('250')).toBe(250);
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('2s')).toBe(2000);
    expect(parseDuration('1.5m')).toBe(90_000);
    expect(parseDuration(' 1H ')).toBe(3_600_000);
    expect(parseDuration('1d')).toBe(86_400_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
  });
  it('throws on garbage', () => {
    for (const v of ['', 'soon', '1x', '-1s', '1 s s', NaN, -5, Infinity, null, {}, '1e3']) expect(() => parseDuration(v)).toThrow(/invalid duration/);
  });
});
