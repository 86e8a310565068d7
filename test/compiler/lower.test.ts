import { describe, expect, it } from 'vitest';
import { compileConfig } from '../../compiler/index.ts';

const config = (retry: string) => `interfaces:\n  orders:\n    actions:\n      - name: Fetch\n        url: http://127.0.0.1:1/x\n        timeout: 1s\n        retry: ${retry}\n`;

describe('lowering durations', () => {
  it('reads duration text in retry as milliseconds, like every other duration', () => {
    const c = compileConfig('d.yaml', config('{ attempts: 3, delay: 2s, max_delay: 1m }'));
    expect(c.diagnostics).toEqual([]);
    const a = c.ir!.interfaces[0]!.actions[0]!;
    expect(a.timeoutMs).toBe(1000);
    expect(a.retry).toMatchObject({ attempts: 3, delay: 2000, maxDelay: 60_000 });
  });

  it('refuses a marker where the duration is fixed at compile time, at the field', () => {
    const c = compileConfig('d.yaml', config('{ attempts: 3, delay: "a|params::wait|" }'));
    expect(c.ok).toBe(false);
    expect(c.diagnostics.map((d) => ({ at: `${d.line}:${d.col}`, message: d.message, hint: d.hint }))).toEqual([
      { at: '7:31', message: 'invalid duration "a|params::wait|": expected milliseconds or text such as 500ms, 2s, 1m, 2h, 7d, 1h30m', hint: 'durations here are fixed when the config is compiled; markers are not read' },
    ]);
  });
});
