// Reading a field of a record for transforms that take dotted field names (aggregate fields).
// Targets that rebuild the data around a selected part are in transforms/util/target.ts.

/** Reads a dotted field ("price.amount") through own properties only; arrays by index. */
export function getDotted(v: unknown, dotted: string): unknown {
  // One plain field (the usual case): no split, no loop.
  if (!dotted.includes('.')) {
    if (v === null || typeof v !== 'object' || (Array.isArray(v) && !/^\d+$/.test(dotted))) return undefined;
    return Object.hasOwn(v, dotted) ? (v as Record<string, unknown>)[dotted] : undefined;
  }
  let cur = v;
  for (const seg of dotted.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    if (Array.isArray(cur) && !/^\d+$/.test(seg)) return undefined;
    cur = Object.hasOwn(cur, seg) ? (cur as Record<string, unknown>)[seg] : undefined;
  }
  return cur;
}
