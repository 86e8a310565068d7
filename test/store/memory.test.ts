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

  it('keeps a finished run\'s record at once, and leaves any other run to saveRun', async () => {
    const rec = (text: string) => ({ parts: [text], redact: (t: string) => t.replace('secret', '[redacted]') });
    const run = (id: string, status: string) => ({ id, config: 'c', iface: 'i', status }) as never;
    expect(s.keepFinished(run('done', 'succeeded'), rec('{"id":"done","status":"succeeded","note":"secret"}'))).toBe(true);
    expect(await s.loadRun('done')).toEqual({ id: 'done', status: 'succeeded', note: '[redacted]' });
    expect(s.keepFinished(run('bad', 'failed'), rec('{"id":"bad","status":"failed"}'))).toBe(true);
    expect((await s.loadRun('bad'))!.status).toBe('failed');
    // Running, suspended, or already stored (parked, then finished): not kept here.
    expect(s.keepFinished(run('busy', 'running'), rec('{}'))).toBe(false);
    expect(s.keepFinished(run('parked', 'suspended'), rec('{}'))).toBe(false);
    await s.suspend({ state: run('was', 'suspended'), wakeAt: null, token: 't' });
    expect(s.keepFinished(run('was', 'succeeded'), rec('{"id":"was","status":"succeeded"}'))).toBe(false);
    await s.saveRun(run('was', 'succeeded'), rec('{"id":"was","status":"succeeded"}'));
    expect(await s.loadRun('was')).toEqual({ id: 'was', status: 'succeeded' });
    expect(await s.loadRun('busy')).toBeUndefined();
  });
});
