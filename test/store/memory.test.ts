// The store contract against the in-memory store (one instance plays both nodes).
import { beforeEach, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../runtime/store/memory.ts';
import { openStore } from '../../runtime/store/index.ts';
import { runContract } from './contract-runs.ts';
import { stateContract } from './contract-state.ts';

describe('MemoryStore', () => {
  let s: MemoryStore;
  beforeEach(async () => {
    s = new MemoryStore();
    await s.init();
  });
  const nodes = (): [MemoryStore, MemoryStore] => [s, s];
  runContract(nodes);
  stateContract(nodes);

  it('is not durable, and is what openStore gives without SERVICE__DATABASE_URL', async () => {
    expect(s.durable).toBe(false);
    const opened = await openStore({});
    expect(opened).toBeInstanceOf(MemoryStore);
    await opened.close();
  });

  it('hands out copies: changing a loaded run does not change the stored one', async () => {
    const state = { id: 'r', config: 'c', iface: 'i', status: 'suspended' } as never;
    await s.suspend({ state, wakeAt: null, token: null });
    const loaded = (await s.loadRun('r'))!;
    loaded.config = 'changed';
    expect((await s.loadRun('r'))!.config).toBe('c');
  });
});
