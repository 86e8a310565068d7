// Runs one interface of an inline config through both paths (fast path, then interpreter) and
// requires byte-identical responses; returns the fast path's result.
import { expect } from 'vitest';
import { executeInterface, type RunResult } from '../../runtime/exec/run.ts';
import { systemClock, type Services } from '../../runtime/services.ts';
import { planOf, postRequest, testEnv } from './plans.ts';

export interface InlineRequest {
  body?: unknown;
  params?: Record<string, string>;
  headers?: Record<string, string>;
}

/** `concurrent`: the two runs at once (runs that mostly wait, sharing no state between the paths). */
export async function runBoth(yaml: string, iface: string, req: InlineRequest = {}, vars: Record<string, string> = {}, services: Services = { clock: systemClock }, o: { concurrent?: boolean } = {}): Promise<RunResult> {
  const one = async (mode: 'compiled' | 'interpreted') => {
    const plan = await planOf('inline.yaml', mode, yaml);
    const i = plan.interfaces.find((x) => x.name === iface)!;
    return executeInterface(plan, i, postRequest(i.route, req.body ?? null, req), { trigger: 'test', env: testEnv(vars), services });
  };
  const out = o.concurrent ? await Promise.all([one('compiled'), one('interpreted')]) : [await one('compiled'), await one('interpreted')];
  expect(JSON.stringify(out[1]!.response)).toBe(JSON.stringify(out[0]!.response));
  return out[0]!;
}
