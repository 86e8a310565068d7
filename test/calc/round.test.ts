import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { roundDecimal } from '../../runtime/calc/round.ts';
import { toNumber } from '../../runtime/calc/num.ts';

describe('roundDecimal (half away from zero on the decimal value)', () => {
  it.each([
    [2.5, 0, 3, '3'],
    [-2.5, 0, -3, '-3'],
    [0.5, 0, 1, '1'],
    [-0.5, 0, -1, '-1'],
    [1.005, 2, 1.01, '1.01'],
    [1.045, 2, 1.05, '1.05'],
    [8.345, 2, 8.35, '8.35'],
    [-1.005, 2, -1.01, '-1.01'],
    [1.5, 2, 1.5, '1.50'],
    [0, 2, 0, '0.00'],
    [-0.001, 2, 0, '0.00'],
    [0.004, 2, 0, '0.00'],
    [0.005, 2, 0.01, '0.01'],
    [123.456, 0, 123, '123'],
    [99.995, 2, 100, '100.00'],
    [1e-7, 2, 0, '0.00'],
    [5e-7, 6, 0.000001, '0.000001'],
    [1.5e21, 2, 1.5e21, '1500000000000000000000.00'],
    [12, 3, 12, '12.000'],
  ])('%d to %d places → %d ("%s")', (x, places, num, text) => {
    const r = roundDecimal(x, places)!;
    expect(r.text).toBe(text);
    expect(Object.is(r.num, num)).toBe(true);
  });

  it('rejects what it cannot round', () => {
    expect(roundDecimal(NaN, 2)).toBeNull();
    expect(roundDecimal(Infinity, 2)).toBeNull();
    expect(roundDecimal(1, -1)).toBeNull();
    expect(roundDecimal(1, 1.5)).toBeNull();
    expect(roundDecimal(1, 21)).toBeNull();
  });

  it('is within half a unit, symmetric in sign, and its text is its number', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e12, max: 1e12, noNaN: true }), fc.integer({ min: 0, max: 8 }), (x, p) => {
        const r = roundDecimal(x, p)!;
        expect(Number(r.text)).toBe(r.num);
        expect(r.text.split('.')[1]?.length ?? 0).toBe(p);
        expect(Math.abs(r.num - x)).toBeLessThanOrEqual(0.5 * 10 ** -p + Math.abs(x) * 1e-15);
        expect(roundDecimal(-x, p)!.num).toBe(r.num === 0 ? 0 : -r.num);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('toNumber', () => {
  it.each([
    [5, 5], ['12.50', 12.5], [' 3 ', 3], ['-1e3', -1000], ['.5', 0.5], ['5.', 5],
    ['', NaN], ['abc', NaN], ['0x10', NaN], ['1,000', NaN], ['Infinity', NaN], [true, NaN], [null, NaN], [[1], NaN],
  ])('%j → %d', (v, n) => expect(toNumber(v)).toBe(n));
});

describe('roundNumber (the number-only fast path)', () => {
  it('agrees with roundDecimal on random values and places', async () => {
    const fc = (await import('fast-check')).default;
    const { roundNumber, roundDecimal } = await import('../../runtime/calc/round.ts');
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 }), fc.integer({ min: 0, max: 8 }), (x, p) => {
        expect(roundNumber(x, p)).toBe(roundDecimal(x, p)?.num ?? null);
      }),
      { numRuns: 5000 },
    );
    for (const [x, p, want] of [[1.005, 2, 1.01], [-2.5, 0, -3], [2.5, 0, 3], [-0.001, 2, 0], [123.456, 1, 123.5]] as const) {
      expect(roundNumber(x, p)).toBe(want);
    }
  });
});
