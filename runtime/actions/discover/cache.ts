// Discovered members kept for cache_ttl_secs (default 10; 0 disables), keyed by the resolved config
// and the settings that point at the backends. Concurrent runs asking for the same key share one
// backend call; failures are never kept. Bounded: past MAX_ENTRIES the oldest entry goes.
import type { Member } from './member.ts';

const MAX_ENTRIES = 1000;

interface Entry { until: number; members: Promise<Member[]> }
const entries = new Map<string, Entry>();

export async function cached(key: string, ttlMs: number, now: () => number, load: () => Promise<Member[]>, keep: (m: Member[]) => boolean): Promise<Member[]> {
  if (ttlMs <= 0) return load();
  const hit = entries.get(key);
  if (hit && hit.until > now()) return hit.members;
  if (hit) entries.delete(key);
  const members = load();
  // Expiry counts from when the answer arrived; until then concurrent callers wait on the same call.
  const entry: Entry = { until: Number.POSITIVE_INFINITY, members };
  if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  entries.set(key, entry);
  try {
    const m = await members;
    if (keep(m)) entry.until = now() + ttlMs;
    else if (entries.get(key) === entry) entries.delete(key);
    return m;
  } catch (e) {
    if (entries.get(key) === entry) entries.delete(key);
    throw e;
  }
}

/** Forget every cached answer (tests). */
export function clearDiscoverCache(): void {
  entries.clear();
}
