// The serving process around its generations (runtime/server/generation.ts): one HTTP listener, the
// store, the log, the shutdown. Requests go to the current generation; a reload starts the next one,
// swaps it in between two requests (the listener and every connection stay), and retires the old
// one once the requests it was answering are answered: in-flight runs finish on the plan they started
// on, new requests get the new plan, and a bad reload is refused with the old one still serving.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Plan } from '../plan.ts';
import { openStore } from '../store/index.ts';
import { createLogger } from '../log/logger.ts';
import type { Redactor } from '../values/redact.ts';
import { logSettings } from './log-settings.ts';
import { startupMessage } from './startup-errors.ts';
import { prepareGeneration, type Generation, type HostParts, type PrepareGeneration } from './generation.ts';
import { serviceName, tracingWanted } from '../trace/settings.ts';
import { loadTracing } from '../trace/load.ts';

/** After the grace: how long runs being parked or stopped get to write the store and their responses. */
const PARK_WAIT_MS = 2000;
/** Fastify's defaults for the server it would have made (its keep-alive outlasts most load balancers'). */
const KEEP_ALIVE_MS = 72_000;

export interface Host {
  readonly port: number;
  /** Serves `plans` from the next request on, made by `prepare` (the runtime that made the plans;
   *  default this one). False when refused: the reason is on stderr and the running plans stay. */
  reload(plans: Plan[], prepare?: PrepareGeneration): Promise<boolean>;
}

export async function startHost(plans: Plan[], o: { port: number; host: string }): Promise<Host> {
  // Settings and plans are checked before anything is opened: a refusal stops the start at once.
  const first = prepareGeneration(plans);
  const live = new Set<Generation>();
  // Every live generation's secrets are redacted: an old one's runs may still be logging.
  let redact: Redactor = first.redact;
  const redactWith = (extra?: Redactor) => {
    const all = [...live].map((g) => g.redact).concat(extra ? [extra] : []);
    redact = all.length === 1 ? all[0]! : composed(all);
  };
  const log = createLogger(logSettings(process.env), Object.assign(<T>(v: T): T => redact(v), { json: (v: unknown) => redact.json(v), cleanText: (t: string) => redact.cleanText(t) }));
  const store = await openStore(process.env);
  const shutdown = new AbortController();
  let draining = false;
  const server = createServer();
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.requestTimeout = 0;
  server.setTimeout(0);
  const node = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  // OpenTelemetry only when asked for (OTEL_EXPORTER_OTLP_ENDPOINT): off, none of it is evaluated.
  // One tracer for the process: every generation's runs report to it.
  const tracer = tracingWanted(process.env) ? (await loadTracing()).startTracing({ serviceName: serviceName(process.env), node }) : undefined;
  const parts: HostParts = { store, log, node, shutdown: shutdown.signal, host: o.host, draining: () => draining, server, ...(tracer ? { tracer } : {}) };
  let current = await first.start(parts);
  live.add(current);
  const sockets = new Set<Socket>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => current.handle(req, res));
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => current.events.emit('upgrade', req, socket, head));
  server.on('clientError', (e: Error, socket: Socket) => current.events.emit('clientError', e, socket));
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    current.events.emit('connection', socket);
  });
  await current.begin();
  await new Promise<void>((done, fail) => { server.once('error', fail); server.listen(o.port, o.host, () => { server.off('error', fail); done(); }); });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : o.port;
  const shown = o.host.includes(':') ? `[${o.host}]` : o.host;
  log.info({ node, configs: plans.map((p) => p.name), port, ...(tracer ? { traces: serviceName(process.env) } : {}) }, 'started');
  // Log lines are batched (runtime/log/logger.ts): the start-up warnings go out before the ready line.
  await new Promise<void>((done) => log.flush(() => done()));
  // On stderr: stdout holds only JSON lines (`serve | jq -c .`); the started line above carries the port.
  process.stderr.write(`pipewright: listening on http://${shown}:${port}\n`);
  const retention = startRetention(store, first.ops.runRetentionMs, (m) => log.warn(m));

  let reloads = 0;
  let queue: Promise<unknown> = Promise.resolve();
  const reload = (next: Plan[], prepare: PrepareGeneration = prepareGeneration): Promise<boolean> => {
    const done = queue.then(() => swap(next, prepare));
    queue = done.catch(() => {});
    return done;
  };

  async function swap(plansNext: Plan[], prepare: PrepareGeneration): Promise<boolean> {
    if (draining) { process.stderr.write('pipewright: reload refused: shutting down\n'); return false; }
    let next: Generation;
    try {
      const prepared = prepare(plansNext);
      // Its start-up lines may quote its values already.
      redactWith(prepared.redact);
      next = await prepared.start(parts);
    } catch (e) {
      redactWith();
      const line = startupMessage(e, o) ?? (e as Error).message;
      process.stderr.write(`pipewright: reload refused, still serving the previous configs: ${line}\n`);
      log.warn({ reason: line }, 'reload refused: still serving the previous configs');
      return false;
    }
    // A shutdown began while it started: it never serves.
    if (draining) { await next.close(false).catch(() => {}); return false; }
    const old = current;
    // The responses under way are the old generation's: it is retired once they are sent.
    const answering = [...sockets].flatMap((s) => {
      const res = (s as Socket & { _httpMessage?: ServerResponse })._httpMessage;
      return res && !res.writableFinished ? [new Promise<void>((r) => { res.once('close', r); res.once('finish', r); })] : [];
    });
    const quiet = old.quiesce();
    live.add(next);
    redactWith();
    current = next;
    for (const s of sockets) next.events.emit('connection', s);
    old.releaseWebSockets();
    // One MQTT connection at a time (the embedded broker's port, the external broker's client id).
    await old.stopMqtt().catch((e: unknown) => log.warn(`reload: closing the previous MQTT connection: ${(e as Error).message}`));
    try { await next.begin(); } catch (e) { log.error({ err: e }, 'reload: schedules, resumer or MQTT of the new configs did not start'); }
    reloads += 1;
    log.info({ configs: plansNext.map((p) => p.name), reload: reloads, in_flight: answering.length }, 'reloaded: new requests get the new configs; requests in flight finish on the previous ones');
    void Promise.all([quiet, ...answering])
      .then(() => old.close(true))
      .then(() => (old.runtime !== next.runtime && ![...live].some((g) => g !== old && g.runtime === old.runtime) ? old.closePools() : undefined))
      .catch((e: unknown) => log.warn(`reload: retiring the previous configs: ${(e as Error).message}`))
      .finally(() => { live.delete(old); redactWith(); });
    return true;
  }

  const stop = async (signal: string) => {
    if (draining) return;
    draining = true;
    const grace = current.shutdownGraceMs, delay = current.shutdownDelayMs;
    clearInterval(retention);
    if (delay) {
      // Load balancers see /_ap/ready fail and stop sending; what they still send is served.
      log.info({ signal, delay_ms: delay }, 'shutting down: /_ap/ready answers 503; requests are still taken for SERVICE__SHUTDOWN_DELAY_SECS');
      await new Promise((r) => setTimeout(r, delay));
    }
    log.info({ signal, grace_ms: grace }, 'shutting down: draining in-flight requests and runs');
    const gens = [...live];
    // What is still draining when the grace ends is named in the log line.
    const waiting = new Set<string>();
    const part = (name: string, p: Promise<unknown>) => { waiting.add(name); return p.finally(() => waiting.delete(name)); };
    const serverClosed = new Promise<void>((r) => server.close(() => r()));
    const drained = Promise.all([
      part('resumed and scheduled runs', Promise.all(gens.map((g) => g.quiesce()))),
      part('HTTP requests and sockets', Promise.all([serverClosed, ...gens.map((g) => g.close(false))])),
    ]).then(() => true);
    const graceOver = new Promise<false>((r) => setTimeout(() => r(false), grace).unref());
    Promise.race([drained, graceOver])
      .then(async (done) => {
        if (done) return;
        // Runs still under way are parked in the store or answered 503; their responses get a moment to leave.
        shutdown.abort();
        await Promise.race([drained, new Promise((r) => setTimeout(r, PARK_WAIT_MS).unref())]);
        const left = gens.map((g) => g.left());
        log.warn({ suspended: left.flatMap((l) => l.suspended), stopped: left.flatMap((l) => l.stopped), in_flight: left.flatMap((l) => l.in_flight), waiting_for: [...waiting] }, 'shutdown grace period over: runs under way were suspended into the store (resumed by another node) or stopped (503); in_flight were left unfinished');
      })
      .then(() => Promise.all([store.close(), ...distinctRuntimes(gens).map((g) => g.closePools()), tracer?.shutdown().catch((e: unknown) => log.warn(`traces: ${(e as Error).message}`))]))
      .then(() => log.flush?.())
      .then(() => process.exit(0), () => process.exit(1));
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  return { port, reload };
}

/** Every redactor in turn (while an old generation's runs finish beside the new one's). */
function composed(all: Redactor[]): Redactor {
  const apply = <T>(v: T): T => all.reduce((x, r) => r(x), v);
  return Object.assign(apply, { json: (v: unknown) => all[0]!.json(apply(v)), cleanText: (t: string) => all.every((r) => r.cleanText(t)) });
}

/** One generation per runtime instance: each closes that runtime's pools once. */
function distinctRuntimes(gens: Generation[]): Generation[] {
  const seen = new Set<object>();
  return gens.filter((g) => !seen.has(g.runtime) && seen.add(g.runtime));
}

/** Finished runs older than the retention are forgotten (checked every minute). */
function startRetention(store: HostParts['store'], ms: number, warn: (m: string) => void): NodeJS.Timeout {
  const t = setInterval(() => {
    store.pruneFinished?.(new Date(Date.now() - ms)).catch((e: unknown) => warn(`run retention: ${(e as Error).message}`));
  }, 60_000);
  t.unref();
  return t;
}
