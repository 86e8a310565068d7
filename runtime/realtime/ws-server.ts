// WebSocket interfaces: `/ws/<org>/<env>/<interface>` for every interface with `ws` set. Each JSON
// text frame runs the interface through the executor; `ap_subscribe` joins a channel (checked by
// `subscribe_authorizer` when set, retained value delivered). Frame shapes: frames.ts.
import type { IncomingMessage, Server } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import type { InterfacePlan, Plan } from '../plan.ts';
import type { Environment } from '../scope.ts';
import type { Services } from '../services.ts';
import { executeInterface, runErrorMessage, runSucceeded, type RunResult } from '../exec/run.ts';
import { stringMap } from '../values/string-map.ts';
import type { Channels } from './channels.ts';
import { parseFrame, type Id, type ServerFrame } from './frames.ts';
import type { Subscriber } from './hub.ts';
import type { WsLimits } from './limits.ts';
import { onUpgrade, refuse } from './upgrade.ts';
import { gateOf, presentedOf, type GateVerdict, type InboundGate, type Surface } from '../inbound.ts';

export interface WsOptions {
  org: string;
  environment: string;
  env: Environment;
  services: Services;
  channels: Channels;
  limits: WsLimits;
  afterRun?: (plan: Plan, i: InterfacePlan, r: RunResult) => void;
}

export const wsPath = (org: string, environment: string, iface: string) =>
  `/ws/${encodeURIComponent(org)}/${encodeURIComponent(environment)}/${encodeURIComponent(iface)}`;

/** `close()` cuts every socket (a shutdown); `close(1012)` asks each client to reconnect (a reload:
 *  the next generation serves the interfaces as now configured). */
export function attachWebSockets(server: Server, plans: readonly Plan[], o: WsOptions): { close(code?: number): void } {
  const routes = new Map<string, { plan: Plan; iface: InterfacePlan }>();
  for (const plan of plans) for (const iface of plan.interfaces) if (iface.ws !== undefined) routes.set(wsPath(o.org, o.environment, iface.name), { plan, iface });
  // maxPayload is a hard stop well above the per-frame limit, which answers with an error frame.
  // No permessage-deflate: fan-out frames are built once, uncompressed, for every socket (wire.ts).
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: Math.max(o.limits.maxFrameBytes * 4, 1024 * 1024) });
  if (!routes.size) return { close: () => wss.close() };
  const gate = gateOf(server);
  if (!gate) throw new Error('WebSocket interfaces need the inbound gate (runtime/server/gate-hooks.ts) on their server');
  // The gate checks the upgrade as the interface (its network policy without spending budget, and
  // its credential) before the handler runs; each frame is checked again (connection()).
  onUpgrade(server, {
    name: 'WebSocket interfaces (/ws/<org>/<env>/<interface>)',
    match: (p) => p.startsWith('/ws/'),
    surface: (url) => { const t = routes.get(url.pathname); return t ? { kind: 'interface', plan: t.plan, iface: t.iface, via: 'ws' } : undefined; },
    gate: { spend: false },
    handle: (req, socket, head, url, identity) => {
      const target = routes.get(url.pathname);
      if (!target) return refuse(socket, 404, `no WebSocket interface at ${url.pathname}`);
      wss.handleUpgrade(req, socket, head, (ws) => connection(ws, req, url, target.plan, target.iface, identity, o, gate));
    },
  });
  const timer = setInterval(() => { for (const ws of wss.clients) heartbeat(ws); }, o.limits.pingMs);
  timer.unref();
  return {
    close: (code) => {
      clearInterval(timer);
      for (const ws of wss.clients) code ? ws.close(code, 'service restart: reconnect') : ws.terminate();
      wss.close();
    },
  };
}

/** ws.send's options, shared: nothing is allocated per socket on our side of a fan-out. */
const TEXT = { binary: false } as const;

const alive = new WeakMap<WebSocket, boolean>();
function heartbeat(ws: WebSocket): void {
  if (alive.get(ws) === false) { ws.terminate(); return; }
  alive.set(ws, false);
  ws.ping();
}

function connection(ws: WebSocket, req: IncomingMessage, url: URL, plan: Plan, iface: InterfacePlan, identity: unknown, o: WsOptions, gate: InboundGate): void {
  // Every frame passes the interface's network policy (address rules and its rate-limit budget)
  // before anything else: the credential was checked at the upgrade.
  const surface: Surface = { kind: 'interface', plan, iface, via: 'ws' };
  const frameGate = gate.hasPolicy(surface) ? presentedOf(req) : undefined;
  const subs = new Set<string>();
  let inFlight = 0;
  alive.set(ws, true);
  ws.on('pong', () => alive.set(ws, true));
  const headers = stringMap(req.headers);
  const params = stringMap(Object.fromEntries(url.searchParams));
  // Fan-out frames are written to the TCP socket directly (wire.ts): ws writes its own frames there
  // synchronously too (no deflate, no queued Blob), so the order of frames on the socket holds, and
  // ws's bufferedAmount counts both.
  const tcp = (ws as unknown as { _socket: { write(b: Buffer): boolean } })._socket;
  // Slow consumer: past the buffer bound the socket is closed (1013 "try again later") rather than
  // letting the queue, and the process's memory, grow. bufferedAmount is O(1) (counters).
  const writable = () => {
    if (ws.readyState !== ws.OPEN) return false;
    if (ws.bufferedAmount <= o.limits.maxBufferedBytes) return true;
    ws.close(1013, 'slow consumer: send buffer full');
    return false;
  };
  const me: Subscriber = {
    send(frame: ServerFrame) { if (writable()) ws.send(JSON.stringify(frame), TEXT); },
    sendFrames(bytes: Buffer) { if (writable()) tcp.write(bytes); },
  };
  const error = (message: string, status = 400, id?: Id) => me.send({ type: 'ap_error', ...(id !== undefined ? { id } : {}), status, message });
  const run = (i: InterfacePlan, body: unknown) =>
    executeInterface(plan, i, { method: 'WS', path: url.pathname, params, headers, body, rawBody: JSON.stringify(body) }, { trigger: 'ws', env: o.env, services: o.services })
      .then((r) => { o.afterRun?.(plan, i, r); return r; });

  ws.on('message', async (data, isBinary) => {
    if (frameGate) {
      const v = await gate.check(surface, frameGate, { credential: false }).catch((): GateVerdict => ({ ok: false, status: 403, message: 'forbidden by the network policy' }));
      if (!v.ok) {
        const f = isBinary ? undefined : parseFrame(data.toString());
        const id = f && f.id !== undefined ? { id: f.id } : {};
        return me.send({ type: 'ap_error', ...id, status: v.status, message: v.message, ...(v.retryAfterSec !== undefined ? { retry_after: v.retryAfterSec } : {}) });
      }
    }
    const bytes = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : (data as Buffer).byteLength;
    if (isBinary) return error('binary frames are not accepted: send JSON text');
    if (bytes > o.limits.maxFrameBytes) return error(`the frame is too large (${bytes} bytes; the limit is ${o.limits.maxFrameBytes})`, 413);
    const f = parseFrame(data.toString());
    if ('error' in f) return error(f.error, 400, f.id);
    const id = f.id !== undefined ? { id: f.id } : {};
    if (f.kind === 'unsubscribe') {
      subs.delete(f.channel);
      o.channels.hub.unsubscribe(me, f.channel);
      return me.send({ type: 'ap_unsubscribed', ...id, channel: f.channel });
    }
    if (inFlight >= o.limits.maxInFlight) return error(`too many requests under way on this socket (limit ${o.limits.maxInFlight})`, 429, f.id);
    inFlight++;
    try {
      if (f.kind === 'subscribe') {
        if (!subs.has(f.channel) && subs.size >= o.limits.maxSubscriptions) return error(`too many subscriptions on this socket (limit ${o.limits.maxSubscriptions})`, 429, f.id);
        const authorizer = iface.subscribeAuthorizer ? plan.interfaces.find((x) => x.name === iface.subscribeAuthorizer) : undefined;
        if (authorizer) {
          const r = await run(authorizer, { channel: f.channel, identity });
          if (!runSucceeded(r)) return error(`subscription to "${f.channel}" was refused`, 403, f.id);
        }
        if (ws.readyState !== ws.OPEN) return;
        subs.add(f.channel);
        o.channels.hub.subscribe(me, f.channel);
        me.send({ type: 'ap_subscribed', ...id, channel: f.channel });
        const retained = await o.channels.retained(f.channel);
        if (retained !== undefined) me.send({ type: 'ap_message', channel: f.channel, data: retained, retained: true });
        return;
      }
      const r = await run(iface, f.body);
      const status = r.response.status;
      if (runSucceeded(r)) me.send({ type: 'ap_result', ...id, status, body: r.response.body ?? null });
      else me.send({ type: 'ap_error', ...id, status, message: runErrorMessage(r) ?? 'the run failed', body: r.response.body ?? null });
    } catch (e) {
      error(`internal error: ${(e as Error).message}`, 500, f.id);
    } finally {
      inFlight--;
    }
  });
  ws.on('close', () => o.channels.hub.drop(me, subs));
  ws.on('error', () => ws.terminate());
}
