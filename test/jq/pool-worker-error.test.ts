// A regex-pool worker (runtime/jq/pool.ts) that throws outside a program's run dies with an 'error'
// event: the call it was running fails with that error's text (before: "the jq worker gave no
// answer"), and the pool replaces the worker, also one that died while idle. The worker here runs a
// simulated engine (the glue the pool is given): on "unreadable" it throws a value whose message
// throws when the worker reads it (so the worker's own catch throws: uncaught), and after "later"
// it throws from a timer once idle.
import { describe, expect, it } from 'vitest';
import { poolExec } from '../../runtime/jq/pool.ts';

const GLUE = `
return () => {
  let last = '';
  return {
    _pw_compile: () => 1, _pw_free() {}, _malloc: () => 8, _free() {}, getValue: () => 0,
    lengthBytesUTF8: (s) => s.length,
    stringToUTF8: (s) => { last = s; },
    _pw_run: () => {
      if (last === '"unreadable"') throw { get message() { throw new Error('simulated fault reading the engine error'); } };
      if (last === '"later"') setTimeout(() => { throw new Error('simulated fault while idle'); }, 20);
      return 16;
    },
    UTF8ToString: () => 'ran ' + last,
  };
};`;

const exec = (text: string) => poolExec(GLUE, {}, 8, '.', text, 5000);

describe('a jq pool worker that throws', () => {
  it('fails the call with the error text, and a new worker answers the next', async () => {
    expect(await exec('"first"')).toEqual({ ok: 'ran "first"' });
    expect(await exec('"unreadable"')).toEqual({ trap: 'the jq worker failed: simulated fault reading the engine error', range: false });
    expect(await exec('"second"')).toEqual({ ok: 'ran "second"' });
  }, 30_000);

  it('dying while idle: replaced on next need, not handed the next call', async () => {
    expect(await exec('"later"')).toEqual({ ok: 'ran "later"' });
    await new Promise((r) => setTimeout(r, 300));
    // Handed to the dead worker, this call would wait for its 5 s deadline and time out.
    expect(await exec('"after"')).toEqual({ ok: 'ran "after"' });
  }, 30_000);
});
