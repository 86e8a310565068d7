// Run states for store tests.
import type { RunState } from '../../runtime/run-state.ts';

export function runState(id: string, extra: Partial<RunState> = {}): RunState {
  return {
    id, config: 'cfg', iface: 'iface', trigger: 'test', startedAt: '2024-01-01T00:00:00.000Z',
    request: { method: 'POST', path: '/x', params: {}, headers: {}, body: { z: 1, a: 2 }, rawBody: '' },
    steps: { First: { outcome: 'succeeded', attempts: 1, data: { zeta: 1, alpha: [1, 'two'] } } },
    seq: { order: ['First'], unhandled: [], failures: {} },
    cursor: 1, status: 'suspended', ...extra,
  };
}

export const T0 = new Date('2024-06-01T00:00:00.000Z');
export const at = (ms: number): Date => new Date(T0.getTime() + ms);
