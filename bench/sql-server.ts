// One side of the sql benchmark in its own process: `pipewright <module>` serves the config's
// generated fast-path module (compiled by the runner, so this process holds the runtime only, as a
// deployed service does), `handwritten` the fastify + pg handler, and `hand-in-pw <module>` (a
// control, SIDES=hand-in-pw,handwritten) the hand-written handler in a process that loaded the
// runtime; prints the port it listens on.
import { pathToFileURL } from 'node:url';
import type { Plan } from '../runtime/plan.ts';
import { initJq } from '../runtime/jq/engine.ts';
import { buildApp } from '../runtime/server/app.ts';
import { processEnvironment } from '../runtime/environment.ts';
import { scenario } from './sql-scenario.ts';

const [side, module] = process.argv.slice(2);
let app;
if (side === 'handwritten') app = scenario.handwritten();
else if (side === 'hand-in-pw') {
  await initJq();
  await import(pathToFileURL(module!).href);
  app = scenario.handwritten();
}
else {
  await initJq();
  const { plan } = (await import(pathToFileURL(module!).href)) as { plan: Plan };
  app = buildApp([plan], { env: processEnvironment({ ...process.env, ...scenario.env }) });
}
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${(app.server.address() as { port: number }).port}\n`);
// A clean exit on SIGTERM (pools closed, --cpu-prof written).
process.once('SIGTERM', () => { void app.close().finally(() => process.exit(0)); });
