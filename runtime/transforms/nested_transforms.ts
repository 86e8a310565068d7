// nested_transforms: { key: [transforms...] } -> each chain runs on the value at `key` (dotted
// paths ok) of the record (each object element of an array) and its result replaces that value.
// Chains run in the listed order; an absent key is skipped (no chain runs on nothing). A failure
// inside names the key, so the author can find which chain broke.
import { TransformError, type TransformRun } from './types.ts';
import { eachRecord } from './util/each.ts';
import { kindOf, lookup, MISSING, setPath, splitPath } from './util/path.ts';

type Chain = (data: unknown, scope: unknown) => unknown;
const W = 'nested_transforms';

export const run: TransformRun = (data, args, scope) => {
  const ok = Array.isArray(args) && args.every((c) => Array.isArray(c) && typeof c[0] === 'string' && typeof c[1] === 'function');
  if (!ok) throw new TransformError(`${W}: expected a map of keys to transform lists, got ${kindOf(args)}`);
  const chains = (args as Array<[string, Chain]>).map(([k, f]) => [k, splitPath(k, W), f] as const);
  // A chain holding an async transform (bcrypt, parse_pdf…) is an async function: await it.
  if (chains.some(([, , f]) => f.constructor.name === 'AsyncFunction')) return runAsync(data, chains, scope);
  return eachRecord(data, W, (rec) =>
    chains.reduce<unknown>((r, [key, p, chain]) => {
      const v = lookup(r, p);
      if (v === MISSING) return r;
      let res: unknown;
      try {
        res = chain(v, scope);
      } catch (e) {
        throw new TransformError(`${W} "${key}": ${e instanceof Error ? e.message : String(e)}`, { cause: e });
      }
      return setPath(r, p, res ?? null, W);
    }, rec),
  );
};

async function runAsync(data: unknown, chains: ReadonlyArray<readonly [string, string[], Chain]>, scope: unknown): Promise<unknown> {
  if (!Array.isArray(data)) eachRecord(data, W, (r) => r); // the same refusal of non-records as the sync path
  const records = Array.isArray(data) ? data : [data];
  const out: unknown[] = [];
  for (const rec of records) {
    if (rec === null || typeof rec !== 'object' || Array.isArray(rec)) { out.push(rec); continue; }
    let r: unknown = rec;
    for (const [key, p, chain] of chains) {
      const v = lookup(r, p);
      if (v === MISSING) continue;
      let res: unknown;
      try {
        res = await chain(v, scope);
      } catch (e) {
        throw new TransformError(`${W} "${key}": ${e instanceof Error ? e.message : String(e)}`, { cause: e });
      }
      r = setPath(r, p, res ?? null, W);
    }
    out.push(r);
  }
  return Array.isArray(data) ? out : out[0];
}
