// What the executor calls for `a|state::KEY|` markers: the keys an action reads, fetched in one go.
import type { Store } from './types.ts';

/** Reads keys of namespace `ns` (a config's name); absent and expired keys are left out (read as null). */
export function stateReader(store: Store, ns: string, now: () => number = Date.now): (keys: string[]) => Promise<Record<string, unknown>> {
  return (keys) => store.stateGet(ns, keys, now());
}
