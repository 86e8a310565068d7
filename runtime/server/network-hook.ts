// NetworkPolicy as the first onRequest hook of an interface's route: refused clients get 403, clients
// over their budget 429 with Retry-After, before credentials are checked or the body is read.
import type { Plan, InterfacePlan } from '../plan.ts';
import { clientIp } from '../network/client-ip.ts';
import { noGeo, type Geo } from '../network/geo.ts';
import type { IpList } from '../network/ip-list.ts';
import { ipList } from '../network/ip-list.ts';
import { decide, layers, missingDatabase } from '../network/policy.ts';
import { memoryLimiter, type RateLimiter } from '../network/rate-limit.ts';
import { StartupError } from './auth/settings.ts';
import type { Hook } from './auth/gate.ts';

export interface NetworkOptions {
  geo?: Geo;
  limiter?: RateLimiter;
  /** SERVICE__TRUSTED_PROXIES: peers whose X-Forwarded-For is believed. */
  trustedProxies?: string;
  now?: () => number;
}

export function networkHooks(o: NetworkOptions = {}) {
  const geo = o.geo ?? noGeo;
  const limiter = o.limiter ?? memoryLimiter();
  const now = o.now ?? Date.now;
  let trusted: IpList;
  try { trusted = ipList(o.trustedProxies, 'SERVICE__TRUSTED_PROXIES'); } catch (e) { throw new StartupError((e as Error).message); }
  return (plan: Plan, i: InterfacePlan): Hook | undefined => {
    const ls = layers({ name: plan.name, ...(plan.settings?.network ? { network: plan.settings.network } : {}) }, i);
    if (!ls) return undefined;
    const missing = missingDatabase(ls, geo);
    if (missing) throw new StartupError(`${missing} (interface ${plan.name}.${i.name})`);
    return async (req, reply) => {
      const ip = clientIp(req.socket.remoteAddress, req.headers['x-forwarded-for'], trusted);
      const header = (name: string) => { const v = req.headers[name.toLowerCase()]; return Array.isArray(v) ? v[0] : v; };
      const d = await decide(ls, ip, header, { geo, limiter, now });
      if (d.ok) return undefined;
      if (d.status === 429) reply.header('retry-after', String(d.retryAfterSec));
      return reply.code(d.status).send({ error: { status: d.status, message: d.message } });
    };
  };
}
