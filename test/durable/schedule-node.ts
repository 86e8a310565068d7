// One server process of the scheduled-takeover test (schedule-takeover.test.ts): serves a config as
// `pipewright serve` does, in the given execution path. It compiles first, then waits for a line on
// stdin holding the cron to use (6 fields, seconds first: configs take 5, seconds are for tests), so
// the test can aim one tick at a moment when every node is up.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { planOf } from '../support/plans.ts';
import { listen } from '../../runtime/server/main.ts';

const [file, mode] = process.argv.slice(2) as [string, 'compiled' | 'interpreted'];
const plan = await planOf(file, mode, readFileSync(file, 'utf8'));
process.stdout.write('compiled\n');
const lines = createInterface({ input: process.stdin });
const cron = await new Promise<string>((ok) => lines.once('line', ok));
lines.close();
for (const i of plan.interfaces) if (i.schedule) i.schedule = { ...(i.schedule as object), cron };
await listen([plan], { port: 0, host: '127.0.0.1' });
