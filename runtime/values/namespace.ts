// Key/value namespaces the runtime keeps for itself. A config's `state`/`only_new` namespace can
// never be one of them: check refuses one written in the config, and the runtime refuses one that a
// value (a var, or a config built without check) produces, with 400 (docs/decisions.md, Security,
// "Where request values may go").
import { Refused } from '../refused.ts';

/** Retained WebSocket channel values (runtime/realtime/channels.ts). */
export const WS_RETAIN_NS = 'ws-retain';
/** Schedule marks and pending retries (runtime/schedule/scheduler.ts). */
export const SCHEDULE_NS = '_ap/schedule';
/** Agent conversation memory: this prefix + the memory's namespace (runtime/actions/agent/memory.ts). */
export const AGENT_MEMORY_PREFIX = 'agent-memory:';

/** Names and prefixes no config namespace may take or start with. */
export const RESERVED_NAMESPACES: ReadonlyArray<{ name: string; prefix: boolean }> = [
  { name: WS_RETAIN_NS, prefix: false },
  { name: '_ap/', prefix: true },
  { name: AGENT_MEMORY_PREFIX, prefix: true },
];

/** The reserved name or prefix `ns` takes, if any. */
export function reservedNamespace(ns: string): string | undefined {
  return RESERVED_NAMESPACES.find((r) => (r.prefix ? ns.startsWith(r.name) : ns === r.name))?.name;
}

/** The namespace of a `state` or `only_new` action: its own (text), else the config's name; a
 *  reserved one is refused (400, never retried). */
export function configNamespace(v: unknown, config: string, what: string): string {
  if (typeof v !== 'string' || !v) return config;
  const r = reservedNamespace(v);
  if (r !== undefined) throw new Refused(`${what}: namespace ${JSON.stringify(v.slice(0, 80))} is reserved for the service (${r}): refused`, 400);
  return v;
}
