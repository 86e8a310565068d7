// One change between two API contracts, classified the way oasdiff classifies its checks:
// `breaking` (an existing client can fail), `warning` (a client may fail or needs a look),
// `info` (additive or cosmetic).
export type Level = 'breaking' | 'warning' | 'info';

export interface Change {
  /** A stable rule id (kebab case, as oasdiff names its checks), for CI filters and tests. */
  id: string;
  level: Level;
  /** `METHOD /path` of the operation (the new document's spelling when both have it). */
  operation: string;
  /** Where in the operation: `query.name`, `body.items[].sku`, `response 200 body.total`, ... */
  at: string;
  message: string;
}

export function breakingCount(changes: readonly Change[]): number {
  return changes.filter((c) => c.level === 'breaking').length;
}

/** Breaking first, then warnings, then info; stable within a level. */
export function byLevel(changes: readonly Change[]): Change[] {
  const rank: Record<Level, number> = { breaking: 0, warning: 1, info: 2 };
  return changes.map((c, i) => ({ c, i })).sort((a, b) => rank[a.c.level] - rank[b.c.level] || a.i - b.i).map((x) => x.c);
}
