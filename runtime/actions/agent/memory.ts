// Conversation memory: the last `window` user/assistant messages under (namespace, key) in the
// store's state (memory or Postgres), so a conversation continues on any node. The ttl is an
// inactivity lifetime: every write starts it again.
import type { Store } from '../../store-types.ts';
import type { ChatMessage } from './model.ts';
import { AGENT_MEMORY_PREFIX } from '../../values/namespace.ts';

export interface MemorySettings { key: string; window: number; ttlMs: number; namespace: string }

const ns = (m: MemorySettings) => `${AGENT_MEMORY_PREFIX}${m.namespace}`;

export async function loadMemory(store: Store, m: MemorySettings, now: number): Promise<ChatMessage[]> {
  const v = (await store.stateGet(ns(m), [m.key], now))[m.key];
  return Array.isArray(v) ? (v as ChatMessage[]) : [];
}

export async function saveMemory(store: Store, m: MemorySettings, messages: ChatMessage[], now: number): Promise<void> {
  const kept = messages.filter((x) => (x.role === 'user' || x.role === 'assistant') && !x.tool_calls).slice(-m.window);
  await store.stateSet(ns(m), m.key, kept, m.ttlMs, now);
}
