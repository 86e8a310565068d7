// The store contract against Postgres: two stores with separate pools on one schema are two nodes.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PostgresStore } from '../../runtime/store/postgres.ts';
import { runContract } from './contract-runs.ts';
import { stateContract } from './contract-state.ts';
import { dropSchema, freshSchema, truncateAll, twoNodes } from './pg.ts';

describe('PostgresStore', () => {
  const schema = freshSchema('contract');
  let pair: [PostgresStore, PostgresStore];
  beforeAll(async () => {
    pair = twoNodes(schema);
    await Promise.all(pair.map((s) => s.init()));
  });
  beforeEach(() => truncateAll(schema));
  afterAll(async () => {
    await Promise.all(pair.map((s) => s.close()));
    await dropSchema(schema);
  });
  const nodes = () => pair;
  runContract(nodes);
  stateContract(nodes);

  it('is durable: a second store on the same schema sees the runs', async () => {
    expect(pair[0].durable).toBe(true);
    const [a] = pair;
    const third = new PostgresStore({ url: a.pool.options.connectionString!, schema });
    await third.init();
    await a.suspend({ state: { id: 'persisted', config: 'c', iface: 'i', status: 'suspended' } as never, wakeAt: null, token: null });
    expect((await third.loadRun('persisted'))?.id).toBe('persisted');
    await third.close();
  });
});
