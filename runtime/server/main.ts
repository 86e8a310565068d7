// Entry of a standalone bundle (`node server.mjs [--port N] [--host H]`) and of `pipewright serve`:
// opens the store (Postgres with SERVICE__DATABASE_URL, else in memory), serves the plans, resumes
// due runs and fires schedules (runtime/server/host.ts). SIGHUP reloads: a bundle's plans are compiled
// in, so its reload reads the secrets and variables again (SERVICE__SECRET__<NAME>_FILE: rotated
// files) and restarts its schedules, MQTT subscriptions and WebSocket interfaces; `serve` also
// recompiles the configs (cli/serve.ts).
import { parseArgs } from 'node:util';
import type { Plan } from '../plan.ts';
import { initJq } from '../jq/engine.ts';
import { StartupError } from './auth/settings.ts';
import { startupMessage } from './startup-errors.ts';
import { startHost, type Host } from './host.ts';

export async function main(plans: Plan[], argv: string[] = process.argv.slice(2)): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { port: { type: 'string' }, host: { type: 'string' } }, strict: true });
  let host: Host;
  try {
    host = await listen(plans, { port: Number(values.port ?? process.env.PORT ?? 8080), host: values.host ?? '127.0.0.1' });
  } catch (e) {
    if (!(e instanceof StartupError)) throw e;
    process.stderr.write(`pipewright: ${e.message}\n`);
    process.exit(1);
  }
  process.on('SIGHUP', () => void host.reload(plans).catch((e: unknown) => process.stderr.write(`pipewright: reload failed, still serving the previous configs: ${(e as Error).message}\n`)));
}

/** Starts everything and prints the one line tools wait for. A failure a user can fix (port in use,
 *  Postgres unreachable, a bad setting) exits with one line saying how; anything else is a bug. */
export async function listen(plans: Plan[], o: { port: number; host: string }): Promise<Host> {
  try {
    await initJq();
    return await startHost(plans, o);
  } catch (e) {
    const line = startupMessage(e, o);
    if (!line) throw e;
    process.stderr.write(`pipewright: ${line}\n`);
    process.exit(1);
  }
}
