// Entry of a standalone bundle (`node server.mjs [--port N] [--host H]`) and of `pipewright serve`:
// opens the store (Postgres with SERVICE__DATABASE_URL, else in memory), serves the plans, resumes
// due runs and fires schedules.
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { Plan } from '../plan.ts';
import { initJq } from '../jq/engine.ts';
import { processEnvironment } from '../environment.ts';
import { DEFAULT_MAX_DELAY_MS, systemClock, type Services } from '../services.ts';
import { openStore } from '../store/index.ts';
import { startResumer } from '../durable/resumer.ts';
import { closeHttpPools } from '../actions/http/pool.ts';
import { buildApp, DEFAULT_ENVIRONMENT } from './app.ts';
import { startMqtt } from '../mqtt/index.ts';
import { Channels } from '../realtime/channels.ts';
import { wsLimitsFrom } from '../realtime/limits.ts';
import { usesChannels } from '../realtime/index.ts';
import { runHooks } from './hooks.ts';
import { createCapture } from '../capture/capture.ts';
import { startSchedules } from '../schedule/scheduler.ts';

export async function main(plans: Plan[], argv: string[] = process.argv.slice(2)): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { port: { type: 'string' }, host: { type: 'string' } }, strict: true });
  await listen(plans, { port: Number(values.port ?? process.env.PORT ?? 8080), host: values.host ?? '127.0.0.1' });
}

/** Starts everything and prints the one line tools wait for. */
export async function listen(plans: Plan[], o: { port: number; host: string }) {
  await initJq();
  const env = processEnvironment();
  const store = await openStore(process.env);
  const maxDelaySecs = Number(process.env.SERVICE__MAX_DELAY_SECS ?? DEFAULT_MAX_DELAY_MS / 1000);
  const services: Services = { clock: systemClock, store, maxDelayMs: maxDelaySecs * 1000 };
  const node = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const warn = (m: string) => process.stderr.write(`pipewright: ${m}\n`);
  const capture = createCapture({ store, now: () => services.clock.now() });
  capture.open(plans);
  const hooks = runHooks({ env, services, warn, capture });
  const adminToken = process.env.SERVICE__ADMIN_TOKEN || undefined;
  // WebSocket channels reach every node sharing the database (Postgres LISTEN/NOTIFY).
  const dbUrl = process.env.SERVICE__DATABASE_URL;
  if (dbUrl && usesChannels(plans)) {
    services.channels = new Channels(store, () => services.clock.now());
    await services.channels.shareThrough(dbUrl, process.env.SERVICE__DATABASE_SCHEMA || 'pipewright', warn);
  }
  const app = buildApp(plans, {
    wsLimits: wsLimitsFrom(process.env),
    ...(Number(process.env.SERVICE__METRICS_MAX_SERIES) > 0 ? { maxMetricSeries: Number(process.env.SERVICE__METRICS_MAX_SERIES) } : {}),
    env, services, node, warn, hooks, ...(adminToken ? { adminToken } : {}),
    ...(process.env.SERVICE__ORG ? { org: process.env.SERVICE__ORG } : {}),
    ...(process.env.SERVICE__ENVIRONMENT ? { environment: process.env.SERVICE__ENVIRONMENT } : {}),
  });
  const resumer = startResumer({ plans, store, env, services, node, log: warn, hooks, pollMs: Number(process.env.SERVICE__RESUME_POLL_MS ?? 250) });
  const schedules = startSchedules(plans, {
    store, env, services, node, log: warn,
    // Seconds-resolution cron is for tests only; configs are validated as 5 fields.
    seconds: process.env.SERVICE__CRON_SECONDS === '1',
    afterRun: (plan, iface, result) => hooks.afterRun(plan, iface, result),
  });
  await startMqtt(app, plans, {
    environment: process.env.SERVICE__ENVIRONMENT || DEFAULT_ENVIRONMENT, env, services, node, host: o.host, warn,
    afterRun: (plan, iface, result) => hooks.afterRun(plan, iface, result),
    ...(process.env.SERVICE__MQTT_URL ? { url: process.env.SERVICE__MQTT_URL } : {}),
    port: process.env.SERVICE__MQTT_PORT ? Number(process.env.SERVICE__MQTT_PORT) : 1883,
  });
  await app.listen({ port: o.port, host: o.host });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : o.port;
  const shown = o.host.includes(':') ? `[${o.host}]` : o.host;
  process.stdout.write(`pipewright: listening on http://${shown}:${port}\n`);
  const stop = () => {
    Promise.all([resumer.stop(), schedules.stop(), app.close()]).then(() => Promise.all([store.close(), closeHttpPools()])).then(() => process.exit(0), () => process.exit(1));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return app;
}
