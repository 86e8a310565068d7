// Realtime surfaces on the service's HTTP server: WebSocket interfaces and channels.
import type { FastifyInstance } from 'fastify';
import type { InterfacePlan, Plan } from '../plan.ts';
import { plansUse } from '../plan-uses.ts';
import type { Environment } from '../scope.ts';
import type { Services } from '../services.ts';
import type { RunResult } from '../exec/run.ts';
import { Channels } from './channels.ts';
import { DEFAULT_WS_LIMITS, type WsLimits } from './limits.ts';
import { attachWebSockets } from './ws-server.ts';
import { gateOf } from '../inbound.ts';
import { isReloaded } from '../reloaded.ts';

export interface RealtimeOptions {
  org: string;
  environment: string;
  env: Environment;
  services: Services;
  wsLimits?: WsLimits;
  /** Where start-up warnings go (a WebSocket interface no socket can reach). */
  warn?: (message: string) => void;
  afterRun?: (plan: Plan, i: InterfacePlan, r: RunResult) => void;
}

export const usesChannels = (plans: readonly Plan[]) => plansUse(plans, 'ws', 'ws_publish');

const attached = new WeakMap<FastifyInstance, { close(code?: number): void }>();

/** A reload swapped another app in: this app's WebSocket clients are asked to reconnect (1012), to
 *  the interfaces as now configured, rather than kept on the old ones until the app closes. */
export function askToReconnect(app: FastifyInstance): void {
  attached.get(app)?.close(1012);
}


export function attachRealtime(app: FastifyInstance, plans: readonly Plan[], o: RealtimeOptions): void {
  if (!usesChannels(plans)) return;
  const s = o.services;
  // main.ts may have made them already (shared through Postgres); otherwise they are this node's.
  const limits = o.wsLimits ?? DEFAULT_WS_LIMITS;
  const channels = s.channels instanceof Channels ? s.channels : new Channels(s.store, () => s.clock.now(), limits.fanoutShare);
  s.channels = channels;
  const ws = attachWebSockets(app.server, plans, {
    org: o.org, environment: o.environment, env: o.env, services: s, channels, limits,
    ...(o.afterRun ? { afterRun: o.afterRun } : {}),
  });
  attached.set(app, ws);
  if (gateOf(app.server)?.credentialsConfigured === false) {
    for (const p of plans) for (const i of p.interfaces) {
      if (i.ws !== undefined && !i.public) o.warn?.(`WebSocket interface ${p.name}.${i.name} is not public and no credential is configured (SERVICE__API_KEYS, SERVICE__JWT_SECRET, SERVICE__JWKS_URL): its upgrades are refused (403) until one is, or it says public: true`);
    }
  }
  app.addHook('onClose', async () => { ws.close(isReloaded(app) ? 1012 : undefined); await channels.close(); });
}
