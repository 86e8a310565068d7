// Both backends agree on random well-formed expressions over random targets, and every result is
// JSON-safe (no undefined, NaN or Infinity escapes).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { both, onRecord } from './helpers.ts';

const num = fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.double({ min: -1e6, max: 1e6, noNaN: true }).map((d) => Math.abs(d)));
const text = fc.stringMatching(/^[a-z0-9 .\-]{0,6}$/);
const leaf = fc.oneof(
  num.map(String),
  text.map((s) => JSON.stringify(s)),
  fc.constantFrom('true', 'false', 'null', 'target.a', 'target.b', 'target["x y"]', 'target.n.v', 'target.arr[0]', 'target.arr', 'target.missing'),
);
const BIN = ['+', '-', '*', '/', '%', '**', '==', '===', '!=', '!==', '<', '<=', '>', '>=', '&&', '||'];
const FNS: Array<[string, number]> = [['round', 1], ['round', 2], ['floor', 1], ['ceil', 1], ['abs', 1], ['sqrt', 1], ['number', 1], ['string', 1], ['pow', 2], ['min', 3], ['max', 2]];

const { expr } = fc.letrec<{ expr: string }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.tuple(tie('expr'), fc.constantFrom(...BIN), tie('expr')).map(([a, op, b]) => `(${a} ${op} ${b})`),
    fc.tuple(fc.constantFrom('-', '!'), tie('expr')).map(([op, a]) => `${op}(${a})`),
    fc.tuple(tie('expr'), tie('expr'), tie('expr')).map(([c, t, e]) => `(${c} ? ${t} : ${e})`),
    fc.tuple(fc.constantFrom(...FNS), fc.array(tie('expr'), { minLength: 3, maxLength: 3 })).map(
      ([[f, n], args]) => `${f}(${args.slice(0, n).join(', ')})`,
    ),
  ),
}));

const value = fc.oneof(num, num.map(String), text, fc.boolean(), fc.constant(null), fc.array(num, { maxLength: 3 }));
const target = fc.record({
  a: value, b: value, 'x y': value, n: fc.oneof(fc.record({ v: value }), value), arr: fc.oneof(fc.array(value, { maxLength: 3 }), value),
});

describe('calc backends agree', () => {
  it('on random expressions and targets', () => {
    fc.assert(
      fc.property(expr, target, (src, t) => {
        const [interpreted, compiled] = both(src);
        const got = interpreted(t);
        expect(compiled(t)).toEqual(got);
        expect(onRecord(src)(t)).toEqual(got); // the form generated modules call on records
        expect(got).not.toBeUndefined();
        if (typeof got === 'number') expect(Number.isFinite(got) && !Object.is(got, -0)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
