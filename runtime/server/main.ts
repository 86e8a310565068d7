// Entry of a standalone bundle (`node server.mjs [--port N] [--host H]`) and of `pipewright serve`:
// opens the store (Postgres with SERVICE__DATABASE_URL, else in memory), serves the plans, resumes
// due runs and fires schedules.
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { Plan } from '../plan.ts';
import { initJq } from '../jq/engine.ts';
import { regexTimeoutMs } from '../jq/regex.ts';
import { configureJqBounds } from '../jq/bounds.ts';
import { processEnvironment } from '../environment.ts';
import { systemClock, type Services } from '../services.ts';
import { openStore } from '../store/index.ts';
import { startResumer } from '../durable/resumer.ts';
import { closeHttpPools } from '../actions/http/pool.ts';
import { closeDatabasePools, maxPools } from '../actions/database/pools.ts';
import { refuseManagedKinds } from './managed-kinds.ts';
import { buildApp, DEFAULT_ENVIRONMENT } from './app.ts';
import { networkFromEnv } from './network-setup.ts';
import { openSurfaces } from './gate-hooks.ts';
import { pinOutboundPolicy } from '../network/outbound.ts';
import { closeDialerAgent } from '../network/dialer.ts';
import { credentialsRequired, inboundSettings, StartupError } from './auth/settings.ts';
import { startMqtt } from '../mqtt/index.ts';
import { Channels } from '../realtime/channels.ts';
import { wsLimitsFrom, type WsLimits } from '../realtime/limits.ts';
import { usesChannels } from '../realtime/index.ts';
import { runHooks, type RunHooks } from './hooks.ts';
import { createCapture } from '../capture/capture.ts';
import { startSchedules, type Schedules } from '../schedule/scheduler.ts';
import { createLogger } from '../log/logger.ts';
import { logSettings } from './log-settings.ts';
import { redactorOf } from '../values/redact.ts';
import { opsSettings } from './ops-settings.ts';
import { startupMessage } from './startup-errors.ts';
import { serviceSettings } from './service-settings.ts';
import { inFlight } from './request-log.ts';
import { shutdownLeft } from './drain.ts';
import { refuseMissingValues } from './needs.ts';
import { refusedWithoutStore } from '../exec/run.ts';
import { serviceName, tracingWanted } from '../trace/settings.ts';
import { loadTracing } from '../trace/load.ts';

/** After the grace: how long runs being parked or stopped get to write the store and their responses. */
const PARK_WAIT_MS = 2000;

export async function main(plans: Plan[], argv: string[] = process.argv.slice(2)): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { port: { type: 'string' }, host: { type: 'string' } }, strict: true });
  try {
    await listen(plans, { port: Number(values.port ?? process.env.PORT ?? 8080), host: values.host ?? '127.0.0.1' });
  } catch (e) {
    if (!(e instanceof StartupError)) throw e;
    process.stderr.write(`pipewright: ${e.message}\n`);
    process.exit(1);
  }
}

/** Starts everything and prints the one line tools wait for. A failure a user can fix (port in use,
 *  Postgres unreachable, a bad setting) exits with one line saying how; anything else is a bug. */
export async function listen(plans: Plan[], o: { port: number; host: string }) {
  try {
    return await start(plans, o);
  } catch (e) {
    const line = startupMessage(e, o);
    if (!line) throw e;
    process.stderr.write(`pipewright: ${line}\n`);
    process.exit(1);
  }
}

async function start(plans: Plan[], o: { port: number; host: string }) {
  await initJq();
  const env = processEnvironment();
  // Settings first: a refused setting stops the start before anything is opened.
  const inbound = inboundSettings(process.env, env);
  const open = openSurfaces(process.env);
  try { pinOutboundPolicy(process.env); } catch (e) { throw new StartupError((e as Error).message); }
  refuseManagedKinds(plans, process.env);
  const missing = refuseMissingValues(plans, env, process.env);
  const ops = opsSettings(process.env);
  const service = serviceSettings(process.env);
  try { regexTimeoutMs(process.env); configureJqBounds(process.env); } catch (e) { throw new StartupError((e as Error).message); }
  try { maxPools(process.env); } catch (e) { throw new StartupError((e as Error).message); }
  let wsLimits: WsLimits;
  try { wsLimits = wsLimitsFrom(process.env); } catch (e) { throw new StartupError((e as Error).message); }
  const log = createLogger(logSettings(process.env), redactorOf(env));
  const store = await openStore(process.env);
  const maxDelaySecs = service.maxDelaySecs;
  // Aborted when the shutdown grace ends: runs still under way are parked (durable store) or stopped.
  const shutdown = new AbortController();
  const services: Services = { clock: systemClock, store, maxDelayMs: maxDelaySecs * 1000, runDeadlineMs: ops.runDeadlineMs, lookupMaxItems: ops.lookupMaxItems, log, shutdown: shutdown.signal };
  const node = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  // OpenTelemetry only when asked for (OTEL_EXPORTER_OTLP_ENDPOINT): off, none of it is evaluated.
  if (tracingWanted(process.env)) services.tracer = (await loadTracing()).startTracing({ serviceName: serviceName(process.env), node });
  const warn = (m: string) => log.warn(m);
  if (missing.length) warn(`started with values not set (SERVICE__ALLOW_MISSING_VALUES=1), sent as empty text: ${missing.join('; ')}`);
  for (const w of service.warnings) warn(w);
  const capture = createCapture({ store, now: () => services.clock.now() });
  capture.open(plans);
  const runHooksOf = runHooks({ env, services, warn, capture });
  // A scheduled tick's run finished by a resumer or a callback (taken over from a dead node, or
  // resumed after a suspension) goes back to its schedule, which retries a failure by its rules.
  let schedules: Schedules | undefined;
  const hooks: RunHooks = { errorHandlers: runHooksOf.errorHandlers, afterRun(p, i, r) { runHooksOf.afterRun(p, i, r); schedules?.finished(r); } };
  const waiting = store.durable ? [] : refusedWithoutStore(plans, maxDelaySecs * 1000);
  if (waiting.length) warn(`no durable store (SERVICE__DATABASE_URL): ${waiting.join(', ')} wait for a callback or a delay past SERVICE__MAX_DELAY_SECS, so their runs are refused with 503 before any action runs`);
  if (!credentialsRequired(inbound)) warn('no inbound credentials configured (SERVICE__API_KEYS, SERVICE__JWT_SECRET, SERVICE__JWKS_URL): every interface answers without one');
  const network = await networkFromEnv(process.env, store);
  // WebSocket channels reach every node sharing the database (Postgres LISTEN/NOTIFY).
  const dbUrl = process.env.SERVICE__DATABASE_URL;
  if (dbUrl && usesChannels(plans)) {
    const channels = new Channels(store, () => services.clock.now(), wsLimits.fanoutShare);
    await channels.shareThrough(dbUrl, process.env.SERVICE__DATABASE_SCHEMA || 'pipewright', warn);
    services.channels = channels;
  }
  const app = buildApp(plans, {
    env, services, node, warn, hooks, inbound, network, open,
    wsLimits,
    ...(service.metricsMaxSeries !== undefined ? { maxMetricSeries: service.metricsMaxSeries } : {}),
    ...(service.org ? { org: service.org } : {}),
    ...(service.environment ? { environment: service.environment } : {}),
  });
  schedules = startSchedules(plans, {
    store, env, services, node, log: warn,
    // Seconds-resolution cron is for tests only; configs are validated as 5 fields.
    seconds: process.env.SERVICE__CRON_SECONDS === '1',
    afterRun: (plan, iface, result) => runHooksOf.afterRun(plan, iface, result),
  });
  const resumer = startResumer({ plans, store, env, services, node, log: warn, hooks, maxTakeovers: ops.maxTakeovers, pollMs: service.resumePollMs });
  await startMqtt(app, plans, {
    environment: service.environment ?? DEFAULT_ENVIRONMENT, env, services, node, host: o.host, warn,
    afterRun: (plan, iface, result) => hooks.afterRun(plan, iface, result),
    ...(process.env.SERVICE__MQTT_URL ? { url: process.env.SERVICE__MQTT_URL } : {}),
    port: service.mqttPort,
  });
  const retention = startRetention(store, ops.runRetentionMs, warn);
  await app.listen({ port: o.port, host: o.host });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : o.port;
  const shown = o.host.includes(':') ? `[${o.host}]` : o.host;
  log.info({ node, configs: plans.map((p) => p.name), port, ...(services.tracer ? { traces: serviceName(process.env) } : {}) }, 'started');
  // Log lines are batched (runtime/log/logger.ts): the start-up warnings go out before the ready line.
  await new Promise<void>((done) => log.flush(() => done()));
  // On stderr: stdout holds only JSON lines (`serve | jq -c .`); the started line above carries the port.
  process.stderr.write(`pipewright: listening on http://${shown}:${port}\n`);
  const stop = (signal: string) => {
    log.info({ signal, grace_ms: ops.shutdownGraceMs }, 'shutting down: draining in-flight requests and runs');
    clearInterval(retention);
    // What is still draining when the grace ends is named in the log line.
    const waiting = new Set<string>();
    const part = (name: string, p: Promise<unknown>) => { waiting.add(name); return p.finally(() => waiting.delete(name)); };
    const drained = Promise.all([part('resumed runs', resumer.stop()), part('scheduled runs', schedules!.stop()), part('HTTP requests and sockets', app.close())]).then(() => true);
    const grace = new Promise<false>((r) => setTimeout(() => r(false), ops.shutdownGraceMs).unref());
    Promise.race([drained, grace])
      .then(async (done) => {
        if (done) return;
        // Runs still under way are parked in the store or answered 503; their responses get a moment to leave.
        shutdown.abort();
        await Promise.race([drained, new Promise((r) => setTimeout(r, PARK_WAIT_MS).unref())]);
        const { suspended, stopped } = shutdownLeft(app);
        log.warn({ suspended, stopped, in_flight: inFlight(app), waiting_for: [...waiting] }, 'shutdown grace period over: runs under way were suspended into the store (resumed by another node) or stopped (503); in_flight were left unfinished');
      })
      .then(() => Promise.all([store.close(), closeHttpPools(), closeDatabasePools(), closeDialerAgent(), services.tracer?.shutdown().catch((e: unknown) => warn(`traces: ${(e as Error).message}`))]))
      .then(() => log.flush?.())
      .then(() => process.exit(0), () => process.exit(1));
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  return app;
}

/** Finished runs older than the retention are forgotten (checked every minute). */
function startRetention(store: Services['store'], ms: number, warn: (m: string) => void): NodeJS.Timeout {
  const t = setInterval(() => {
    store?.pruneFinished?.(new Date(Date.now() - ms)).catch((e: unknown) => warn(`run retention: ${(e as Error).message}`));
  }, 60_000);
  t.unref();
  return t;
}
