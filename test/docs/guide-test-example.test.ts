// The guide's `pipewright test` example, as printed: its interface passes `check` and the test
// command's own check in both paths, and a wrong `produces.example` is reported as a problem.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkInterface } from '../../cli/test-cmd.ts';
import { systemClock } from '../../runtime/services.ts';
import { planOf } from '../support/plans.ts';
import { check } from '../schema/helpers.ts';

const guide = readFileSync(new URL('../../docs/guide.md', import.meta.url), 'utf8');
const example = [...guide.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!).find((y) => y.includes('  quote:\n'))!;

describe("the guide's pipewright test example", () => {
  it('passes check', () => {
    expect(check(example).filter((d) => d.severity === 'error')).toEqual([]);
  });

  it.each(['compiled', 'interpreted'] as const)('passes the test command, and a wrong example fails it (%s)', async (mode) => {
    const services = { clock: systemClock };
    const plan = await planOf(`guide-quote-${mode}.yaml`, mode, example);
    expect(await checkInterface(plan, plan.interfaces[0]!, services)).toEqual([]);
    const wrong = await planOf(`guide-quote-wrong-${mode}.yaml`, mode, example.replace('example: { total: 7.5 }', 'example: { total: 8 }'));
    expect((await checkInterface(wrong, wrong.interfaces[0]!, services)).join('\n')).toContain('produces.example');
  });
});
