// A run's record carries its start and deadline as ISO text read from the services' clock (the
// status endpoint and the durable store show them): the same text as Date#toISOString for any
// instant, including consecutive runs within one second and clocks with fractional milliseconds.
import { describe, expect, it } from 'vitest';
import { executeInterface } from '../../runtime/exec/run.ts';
import { planOf, postRequest, testEnv } from '../support/plans.ts';

const CONFIG = `
interfaces:
  x:
    actions:
      - name: A
        input: a
`;

describe('the start and deadline of a run', () => {
  it.each(['compiled', 'interpreted'] as const)('read as Date#toISOString would write them (%s)', async (mode) => {
    const plan = await planOf('times.yaml', mode, CONFIG);
    const base = Date.parse('2026-03-01T10:00:00.000Z');
    // Within one second (padding of 1, 2 and 3 digits), the next second, fractional and pre-1970 clocks.
    const instants = [base, base + 5, base + 10, base + 50, base + 100, base + 500, base + 999, base + 1000, base + 1007, base + 5.5, base + 1999.75, -1, -1500];
    for (const [n, t] of instants.entries()) {
      const deadlineMs = n % 2 ? 250 : undefined; // the default deadline is a day
      const r = await executeInterface(plan, plan.interfaces[0]!, postRequest('/x'), { trigger: 'test', env: testEnv(), services: { clock: { now: () => t, sleep: async () => {} }, runDeadlineMs: deadlineMs } });
      expect(r.response.status).toBe(200);
      expect([r.state.startedAt, r.state.deadline], `at ${t}`).toEqual([new Date(t).toISOString(), new Date(t + (deadlineMs ?? 86_400_000)).toISOString()]);
    }
  });
});
