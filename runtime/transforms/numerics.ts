// numerics: [price, "stock.qty", ...] -> those fields' numeric strings become numbers, in the
// record (each object element of an array). Only plain decimal text converts (" 12.50 ", "-3",
// "1e3"); other strings ("N/A", "", "0x1F", "1,000") and integers beyond 2^53 (ids that would lose
// digits) stay as they are, as do non-strings and absent fields: one odd row must not fail a batch.
import type { TransformRun, TransformSpec } from './types.ts';
import { pathList } from './util/args.ts';
import { eachRecord } from './util/each.ts';
import { lookup, setPath } from './util/path.ts';

export const spec: TransformSpec = {};

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

export function toNumber(s: string): number | undefined {
  const t = s.trim();
  if (!DECIMAL.test(t)) return undefined;
  const n = Number(t);
  if (!Number.isFinite(n)) return undefined;
  if (/^[+-]?\d+$/.test(t) && !Number.isSafeInteger(n)) return undefined;
  return n;
}

export const run: TransformRun = (data, args) => {
  const paths = pathList(args, 'numerics');
  return eachRecord(data, 'numerics', (rec) =>
    paths.reduce<unknown>((r, p) => {
      const v = lookup(r, p);
      const n = typeof v === 'string' ? toNumber(v) : undefined;
      return n === undefined ? r : setPath(r, p, n, 'numerics');
    }, rec),
  );
};
