// Entry of a standalone bundle: `node server.mjs [--port N] [--host H]` serves the compiled plans.
import { parseArgs } from 'node:util';
import type { Plan } from '../plan.ts';
import { initJq } from '../jq/engine.ts';
import { buildApp } from './app.ts';

export async function main(plans: Plan[], argv: string[] = process.argv.slice(2)): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { port: { type: 'string' }, host: { type: 'string' } }, strict: true });
  await listen(plans, { port: Number(values.port ?? process.env.PORT ?? 8080), host: values.host ?? '127.0.0.1' });
}

/** Starts the server and prints the one line tools wait for. */
export async function listen(plans: Plan[], o: { port: number; host: string }) {
  await initJq();
  const app = buildApp(plans);
  await app.listen({ port: o.port, host: o.host });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : o.port;
  const shown = o.host.includes(':') ? `[${o.host}]` : o.host;
  process.stdout.write(`pipewright: listening on http://${shown}:${port}\n`);
  const stop = () => { app.close().then(() => process.exit(0), () => process.exit(1)); };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return app;
}
