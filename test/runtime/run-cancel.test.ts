// A run's cancellation makes no AbortSignal until one is read (runtime/run-cancel.ts), yet behaves
// as one: listeners and the signal, made before or after the abort, all see it with its reason.
import { expect, it } from 'vitest';
import { RunCancel } from '../../runtime/run-cancel.ts';

it('tells listeners once, and a signal made before or after the abort is aborted with the reason', () => {
  const c = new RunCancel();
  const early = c.signal;
  const seen: unknown[] = [];
  c.onAbort((r) => seen.push(['a', r]));
  const off = c.onAbort((r) => seen.push(['b', r]));
  c.onAbort((r) => seen.push(['c', r]));
  off();
  const why = new Error('the client disconnected');
  c.abort(why);
  c.abort(new Error('again'));
  expect(seen).toEqual([['a', why], ['c', why]]);
  expect(c.aborted).toBe(true);
  expect(early.aborted).toBe(true);
  expect(early.reason).toBe(why);
  expect(c.signal.reason).toBe(why);
  const late: unknown[] = [];
  c.onAbort((r) => late.push(r));
  expect(late).toEqual([why]);
});

it('a listener removed before the abort is not called', () => {
  const c = new RunCancel();
  const seen: unknown[] = [];
  c.onAbort(() => seen.push('x'))();
  c.abort(new Error('gone'));
  expect(seen).toEqual([]);
});
