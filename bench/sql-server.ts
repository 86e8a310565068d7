// One side of the sql benchmark in its own process: `pipewright` (the scenario's config, fast path)
// or `handwritten`; prints the port it listens on.
import { buildApp } from '../runtime/server/app.ts';
import { processEnvironment } from '../runtime/environment.ts';
import { planOf } from '../test/support/plans.ts';
import { scenario } from './scenarios/sql.ts';

const side = process.argv[2];
const app = side === 'handwritten'
  ? scenario.handwritten()
  : buildApp([await planOf('bench-sql.yaml', 'compiled', scenario.config)], { env: processEnvironment({ ...process.env, ...scenario.env }) });
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${(app.server.address() as { port: number }).port}\n`);
// A clean exit on SIGTERM (pools closed, --cpu-prof written).
process.once('SIGTERM', () => { void app.close().finally(() => process.exit(0)); });
