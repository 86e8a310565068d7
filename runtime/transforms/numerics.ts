// numerics: [price, "stock.qty", ...] -> those fields' numeric strings become numbers, in the
// record (each object element of an array). Only plain decimal text converts (" 12.50 ", "-3",
// "1e3"); other strings ("N/A", "", "0x1F", "1,000") and integers beyond 2^53 (ids that would lose
// digits) stay as they are, as do non-strings and absent fields: one odd row must not fail a batch.
import type { TransformRun } from './types.ts';
import { pathList } from './util/args.ts';
import { eachRecord } from './util/each.ts';
import { lookup, setPath } from './util/path.ts';
import { toNumber } from '../calc/num.ts';

/** The shared numeric-text rule (calc/num.ts), minus integers that would lose digits. */
function convert(s: string): number | undefined {
  const n = toNumber(s);
  if (!Number.isFinite(n)) return undefined;
  if (/^\s*[+-]?\d+\s*$/.test(s) && !Number.isSafeInteger(n)) return undefined;
  return n;
}

export const run: TransformRun = (data, args) => {
  const paths = pathList(args, 'numerics');
  return eachRecord(data, 'numerics', (rec) =>
    paths.reduce<unknown>((r, p) => {
      const v = lookup(r, p);
      const n = typeof v === 'string' ? convert(v) : undefined;
      // Stryker disable next-line StringLiteral: equivalent, the path was just read, so setting it cannot fail (the name shows only in setPath's error)
      return n === undefined ? r : setPath(r, p, n, 'numerics');
    }, rec),
  );
};
