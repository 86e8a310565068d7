// A resumed run's record is the resumer's: written whole (its steps, deadline, request), and the
// after-run hooks (error handler, metrics, capture) still run without writing the shorter record of
// a run that finished at once over it.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { executeInterface } from '../../runtime/exec/run.ts';
import { continueRun } from '../../runtime/durable/resumer.ts';
import { runHooks } from '../../runtime/server/hooks.ts';
import { MemoryStore } from '../../runtime/store/memory.ts';
import { planOf, postRequest, testEnv } from '../support/plans.ts';

const CONFIG = `
interfaces:
  later:
    actions:
      - name: First
        input: a|body::id|
      - name: Wait
        delay: 10s
      - name: After
        input: { first: a|First| }
        output: http
`;
const t0 = Date.parse('2026-03-01T10:00:00.250Z');

describe.each(['compiled', 'interpreted'] as const)('%s', (mode) => {
  it('keeps the whole record the resumer wrote, and runs the after-run hooks', async () => {
    const plan = await planOf('resumed-record.yaml', mode, CONFIG);
    const clock = { t: t0, now: () => clock.t, sleep: async (_ms: number) => {} };
    const store = Object.assign(new MemoryStore(), { durable: true });
    const env = { ...testEnv(), uuid: () => randomUUID() };
    const services = { clock, store, maxDelayMs: 1000 };
    const hooks = runHooks({ env, services, warn: () => {} });
    let after = 0;
    const first = await executeInterface(plan, plan.interfaces[0]!, postRequest('/later', { id: 7 }), { trigger: 'http', env, services });
    expect(first.response.status).toBe(202);
    clock.t = t0 + 10_000;
    const [due] = await store.claimDue(new Date(clock.t), 10, 'node');
    const done = await continueRun({ plans: [plan], store, env, services, node: 'node', hooks: { afterRun: (p, i, r) => { after++; hooks.afterRun(p, i, r); } } }, due!, { kind: 'wake' });
    expect(done.status).toBe('succeeded');
    expect(after).toBe(1);
    const stored = (await store.loadRun(first.state.id))!;
    expect(stored.response).toMatchObject({ status: 200, body: { first: 7 } });
    expect(Object.keys(stored.steps)).toEqual(['First', 'Wait', 'After']);
    expect(stored.request.body).toEqual({ id: 7 });
    expect(stored.deadline).toBe('2026-03-02T10:00:00.250Z');
  });
});
