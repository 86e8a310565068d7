// withCancel (runtime/services.ts): a run's services with its cancellation, every field carried over.
import { expect, it } from 'vitest';
import { systemClock, withCancel, type Services } from '../../runtime/services.ts';
import { RunCancel } from '../../runtime/run-cancel.ts';

it('copies every field of the services and sets the run\'s cancellation, leaving the shared ones alone', () => {
  // Required<Services>: a field added to Services must be added here, and then to withCancel.
  const full: Required<Services> = {
    clock: systemClock, store: {} as never, maxDelayMs: 1, runDeadlineMs: 2, lookupMaxItems: 3, log: {} as never, cancel: new RunCancel(),
    shutdown: new AbortController().signal, plans: new Map(), runInterface: async () => ({ status: 200, body: null, failed: false }),
    channels: { publish: async () => {} }, metrics: { emit: () => undefined }, mqtt: { publish: async () => {} }, tracer: {} as never, standIns: {} as never,
  };
  const cancel = new RunCancel();
  const run = withCancel(full, cancel);
  expect(run).toEqual({ ...full, cancel });
  expect(Object.keys(run).sort()).toEqual(Object.keys(full).sort());
  expect(full.cancel).not.toBe(cancel);
});
