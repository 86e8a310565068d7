// One server process of the reload-follow test (reload-follow.test.ts): serves config <first> as
// `serve` does, in the given execution path, and on the stdin line "reload" reloads to <second>
// (what SIGHUP does with a recompiled config). Schedules tick every second (6-field cron with
// SERVICE__CRON_SECONDS=1: configs take 5 fields, seconds are for tests).
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { planOf } from '../support/plans.ts';
import { listen } from '../../runtime/server/main.ts';
import type { Plan } from '../../runtime/plan.ts';

const [first, second, mode] = process.argv.slice(2) as [string, string, 'compiled' | 'interpreted'];
const load = async (file: string): Promise<Plan> => {
  const plan = await planOf('follow.yaml', mode, readFileSync(file, 'utf8'));
  for (const i of plan.interfaces) if (i.schedule) i.schedule = { ...(i.schedule as object), cron: '* * * * * *' } as typeof i.schedule;
  return plan;
};
const host = await listen([await load(first)], { port: 0, host: '127.0.0.1' });
const next = await load(second);
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line === 'reload') void host.reload([next]).then((ok) => process.stdout.write(`reload ${ok ? 'done' : 'refused'}\n`));
});
