// One side of the lookup benchmark, in its own process so its peak memory is its own:
// runs a 1,000-item lookup against the upstream N times and prints items/s and peak RSS.
import { executeInterface } from '../runtime/exec/run.ts';
import { systemClock } from '../runtime/services.ts';
import { processEnvironment } from '../runtime/environment.ts';
import { closeHttpPools } from '../runtime/actions/http/pool.ts';
import { planOf } from '../test/support/plans.ts';

const [mode, upstream, runs] = process.argv.slice(2) as ['compiled' | 'interpreted', string, string];
const yaml = `
interfaces:
  fan:
    actions:
      - name: Members
        lookup: a|body::ids|
        lookup_concurrency: 50
        actions:
          - name: Get
            url: a|var::API|/member/a|body::id|
            post_transforms:
              - keep_attributes: [id, name, tier]
              - add_attribute: { source: upstream }
      - name: Count
        input: a|Members|
        post_transforms:
          - aggregate: { count: true }
        output: http
`;
const plan = await planOf('bench-lookup.yaml', mode, yaml);
const i = plan.interfaces[0]!;
const body = { ids: Array.from({ length: 1000 }, (_, n) => ({ id: n + 1 })) };
const env = processEnvironment({ SERVICE__VAR__API: upstream });
const once = () => executeInterface(plan, i, { method: 'POST', path: '/fan', params: {}, headers: {}, body, rawBody: '' }, { trigger: 'test', env, services: { clock: systemClock } });
await once(); // warm-up: pools, JIT
const rssBefore = process.memoryUsage().rss;
let rssPeak = rssBefore;
const sampler = setInterval(() => { rssPeak = Math.max(rssPeak, process.memoryUsage().rss); }, 5);
const t0 = performance.now();
for (let n = 0; n < Number(runs); n++) {
  const r = await once();
  if ((r.response.body as { count: number }).count !== 1000) throw new Error(`bad result: ${JSON.stringify(r.response.body)}`);
}
const secs = (performance.now() - t0) / 1000;
clearInterval(sampler);
process.stdout.write(JSON.stringify({ mode, itemsPerSec: (1000 * Number(runs)) / secs, peakRssMiB: process.resourceUsage().maxRSS / 1024, rssGrowthMiB: (rssPeak - rssBefore) / 1048576 }) + '\n');
await closeHttpPools();
