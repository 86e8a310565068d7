// One generation of a serving process: the plans of one load of the configs and everything built from
// them (routes, WebSocket interfaces, schedules, the resumer, MQTT subscriptions, the secrets and
// variables read for them). A reload (runtime/server/host.ts) starts the next generation on the same
// listener, swaps it in, and retires this one once its requests in flight are answered.
// A generation is made by the runtime that made its plans: `serve`'s fast path reloads a new bundle,
// whose own runtime makes the next generation. The host hands it only node objects and the store.
import { EventEmitter } from 'node:events';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Plan } from '../plan.ts';
import type { Store } from '../store-types.ts';
import type { Logger } from '../log/logger.ts';
import { initJq } from '../jq/engine.ts';
import { regexTimeoutMs } from '../jq/regex.ts';
import { configureJqBounds } from '../jq/bounds.ts';
import { processEnvironment } from '../environment.ts';
import { systemClock, type Services } from '../services.ts';
import type { RunTracer } from '../tracing.ts';
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
import { startMqtt, usesMqtt, type MqttService } from '../mqtt/index.ts';
import { Channels } from '../realtime/channels.ts';
import { wsLimitsFrom, type WsLimits } from '../realtime/limits.ts';
import { askToReconnect, usesChannels } from '../realtime/index.ts';
import { runHooks, type RunHooks } from './hooks.ts';
import { createCapture } from '../capture/capture.ts';
import { startSchedules, type Schedules } from '../schedule/scheduler.ts';
import { redactorOf, type Redactor } from '../values/redact.ts';
import { opsSettings } from './ops-settings.ts';
import { serviceSettings } from './service-settings.ts';
import { inFlight } from './request-log.ts';
import { shutdownLeft, type LeftRun } from './drain.ts';
import { markReloaded } from '../reloaded.ts';
import { refuseMissingValues } from './needs.ts';
import { refusedWithoutStore } from '../exec/run.ts';

/** What the host lends every generation. */
export interface HostParts {
  store: Store;
  /** The one logger; its redactor covers every live generation's secrets (host.ts). */
  log: Logger;
  node: string;
  /** Aborted when the shutdown grace ends: runs still under way are parked or stopped. */
  shutdown: AbortSignal;
  /** The address the HTTP server listens on (the embedded MQTT broker's TCP port binds there too). */
  host: string;
  draining(): boolean;
  /** The real listener (for its address). */
  server: Server;
  /** The process's tracer (OpenTelemetry), when OTEL_EXPORTER_OTLP_ENDPOINT asks for one. */
  tracer?: RunTracer;
}

export interface Generation {
  readonly plans: Plan[];
  readonly app: FastifyInstance;
  /** This runtime instance: a successor made by the same one shares its connection pools. */
  readonly runtime: object;
  /** Its secrets and variables, for the host's log redactor. */
  readonly redact: Redactor;
  /** The app's server as the host feeds it: 'upgrade', 'connection' and 'clientError' events. */
  readonly events: EventEmitter;
  /** Fastify's request handler. */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Starts what runs without a request: schedules, the resumer, MQTT. */
  begin(): Promise<void>;
  /** Stops starting runs of its own (schedules, resumer) at once; resolves when those under way end. */
  quiesce(): Promise<void>;
  /** Asks its WebSocket clients to reconnect (1012): the next generation takes them. */
  releaseWebSockets(): void;
  /** Closes its MQTT connection (or embedded broker): the next generation's takes its place. */
  stopMqtt(): Promise<void>;
  /** Closes the app (WebSockets, channels). `reload`: the connections stay, served by the next one. */
  close(reload: boolean): Promise<void>;
  /** Its runtime's outbound pools and agents (on shutdown, or when the next one has its own). */
  closePools(): Promise<void>;
  /** What a shutdown left unfinished, for its log line. */
  left(): { suspended: LeftRun[]; stopped: LeftRun[]; in_flight: string[] };
  /** SERVICE__RUN_RETENTION_HOURS, SERVICE__SHUTDOWN_GRACE_SECS and _DELAY_SECS, as this generation read them. */
  readonly runRetentionMs: number;
  readonly shutdownGraceMs: number;
  readonly shutdownDelayMs: number;
}

/** This module instance: a generation made by another bundle has another. */
const RUNTIME = {};

/** Checks the settings and the plans against them (a StartupError says what to fix), before anything
 *  is opened; `start` then builds the generation. */
export function prepareGeneration(plans: Plan[], settings: NodeJS.ProcessEnv = process.env) {
  const env = processEnvironment(Object.assign(Object.create(null) as NodeJS.ProcessEnv, settings));
  const inbound = inboundSettings(settings, env);
  const open = openSurfaces(settings);
  try { pinOutboundPolicy(settings); } catch (e) { throw new StartupError((e as Error).message); }
  refuseManagedKinds(plans, settings);
  const missing = refuseMissingValues(plans, env, settings);
  const ops = opsSettings(settings);
  const service = serviceSettings(settings);
  try { regexTimeoutMs(settings); configureJqBounds(settings); maxPools(settings); } catch (e) { throw new StartupError((e as Error).message); }
  let wsLimits: WsLimits;
  try { wsLimits = wsLimitsFrom(settings); } catch (e) { throw new StartupError((e as Error).message); }
  const redact = redactorOf(env);
  return { env, redact, ops, start };

  async function start(host: HostParts): Promise<Generation> {
    await initJq();
    const { store, log, node } = host;
    const services: Services = { clock: systemClock, store, maxDelayMs: service.maxDelaySecs * 1000, runDeadlineMs: ops.runDeadlineMs, lookupMaxItems: ops.lookupMaxItems, log, shutdown: host.shutdown, ...(host.tracer ? { tracer: host.tracer } : {}) };
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
    const waiting = store.durable ? [] : refusedWithoutStore(plans, service.maxDelaySecs * 1000);
    if (waiting.length) warn(`no durable store (SERVICE__DATABASE_URL): ${waiting.join(', ')} wait for a callback or a delay past SERVICE__MAX_DELAY_SECS, so their runs are refused with 503 before any action runs`);
    if (!credentialsRequired(inbound)) warn('no inbound credentials configured (SERVICE__API_KEYS, SERVICE__JWT_SECRET, SERVICE__JWKS_URL): every interface answers without one');
    const network = await networkFromEnv(settings, store);
    // WebSocket channels reach every node sharing the database (Postgres LISTEN/NOTIFY).
    const dbUrl = settings.SERVICE__DATABASE_URL;
    let channels: Channels | undefined;
    if (dbUrl && usesChannels(plans)) {
      channels = new Channels(store, () => services.clock.now(), wsLimits.fanoutShare);
      await channels.shareThrough(dbUrl, settings.SERVICE__DATABASE_SCHEMA || 'pipewright', warn);
      services.channels = channels;
    }
    // The app's server: events the host passes on from the one listener (host.ts).
    const events = Object.assign(new EventEmitter(), { address: () => host.server.address() });
    Object.defineProperty(events, 'listening', { get: () => host.server.listening });
    let handle: Generation['handle'] | undefined;
    let mqtt: MqttService | undefined;
    let app: FastifyInstance;
    try {
      app = buildApp(plans, {
        env, services, node, warn, hooks, inbound, network, open, wsLimits,
        ...(service.metricsMaxSeries !== undefined ? { maxMetricSeries: service.metricsMaxSeries } : {}),
        ...(service.org ? { org: service.org } : {}),
        ...(service.environment ? { environment: service.environment } : {}),
        readiness: { draining: host.draining, ...(usesMqtt(plans) ? { broker: () => mqtt?.connection.client.connected === true } : {}) },
        serverFactory: (handler) => { handle = handler; return events as unknown as Server; },
      });
      // MQTT starts after the swap (begin), when fastify takes no more hooks: closed with the app here.
      app.addHook('onClose', async () => { await mqtt?.close(); });
      await app.ready();
    } catch (e) {
      await channels?.close();
      throw e;
    }
    let resumer: ReturnType<typeof startResumer> | undefined;
    return {
      plans, app, runtime: RUNTIME, redact, events, handle: handle!,
      runRetentionMs: ops.runRetentionMs, shutdownGraceMs: ops.shutdownGraceMs, shutdownDelayMs: ops.shutdownDelayMs,
      async begin() {
        schedules = startSchedules(plans, {
          store, env, services, node, log: warn,
          // Seconds-resolution cron is for tests only; configs are validated as 5 fields.
          seconds: settings.SERVICE__CRON_SECONDS === '1',
          afterRun: (plan, iface, result) => runHooksOf.afterRun(plan, iface, result),
        });
        resumer = startResumer({ plans, store, env, services, node, log: warn, hooks, maxTakeovers: ops.maxTakeovers, pollMs: service.resumePollMs });
        mqtt = await startMqtt(app, plans, {
          environment: service.environment ?? DEFAULT_ENVIRONMENT, env, services, node, host: host.host, warn,
          afterRun: (plan, iface, result) => hooks.afterRun(plan, iface, result),
          ...(settings.SERVICE__MQTT_URL ? { url: settings.SERVICE__MQTT_URL } : {}),
          port: service.mqttPort, closeWithApp: false,
        });
      },
      quiesce: async () => { await Promise.all([resumer?.stop(), schedules?.stop()]); },
      releaseWebSockets: () => askToReconnect(app),
      async stopMqtt() { const m = mqtt; mqtt = undefined; await m?.close(); },
      async close(reload) {
        if (reload) markReloaded(app);
        await app.close();
      },
      closePools: async () => { await Promise.all([closeHttpPools(), closeDatabasePools(), closeDialerAgent()]); },
      left: () => ({ ...shutdownLeft(app), in_flight: inFlight(app) }),
    };
  }
}

export type PreparedGeneration = ReturnType<typeof prepareGeneration>;
export type PrepareGeneration = (plans: Plan[]) => PreparedGeneration;
