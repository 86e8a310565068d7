// Evaluating NetworkPolicy for one request, before anything else runs: the config-wide policy (unless
// the interface says `inherit: false`) and the interface's own must both pass; address, country and
// ASN rules first, then rate limits, so a refused client spends no budget.
import type { NetworkIR } from '../config-ir.ts';
import type { Geo } from './geo.ts';
import { hasAddress, ipList, type IpList } from './ip-list.ts';
import type { RateLimiter } from './rate-limit.ts';

export type Decision = { ok: true } | { ok: false; status: 403; message: string } | { ok: false; status: 429; message: string; retryAfterSec: number };

export interface Layer { scope: string; ir: NetworkIR; allow?: IpList; deny?: IpList }

export interface NetworkServices { geo: Geo; limiter: RateLimiter; now: () => number }

/** The layers that apply to an interface; undefined when none does. */
export function layers(config: { name: string; network?: NetworkIR }, iface: { name: string; network?: NetworkIR }): Layer[] | undefined {
  const out: Layer[] = [];
  const add = (scope: string, ir: NetworkIR) => out.push({
    scope, ir,
    ...(ir.allowIps ? { allow: ipList(ir.allowIps, 'allow_ips') } : {}),
    ...(ir.denyIps ? { deny: ipList(ir.denyIps, 'deny_ips') } : {}),
  });
  if (config.network && iface.network?.inherit !== false) add(config.name, config.network);
  if (iface.network) add(`${config.name}.${iface.name}`, iface.network);
  return out.length ? out : undefined;
}

/** Country or ASN rules need a database: refused at start rather than never matching. */
export function missingDatabase(ls: Layer[], geo: Geo): string | undefined {
  for (const { ir } of ls) {
    if ((ir.allowCountries || ir.denyCountries) && !geo.hasCountries) return 'a network policy has country rules but SERVICE__GEOIP_DB is not set';
    if ((ir.allowAsns || ir.denyAsns) && !geo.hasAsns) return 'a network policy has ASN rules but neither SERVICE__ASN_DB nor SERVICE__GEOIP_DB is set';
  }
  return undefined;
}

const OK = { ok: true } as const;
const FORBIDDEN = { ok: false, status: 403, message: 'forbidden by the network policy' } as const;

/** `spend` false: address, country and ASN rules only (a WebSocket upgrade, whose frames are counted). */
export async function decide(ls: Layer[], ip: string, header: (name: string) => string | undefined, s: NetworkServices, spend = true): Promise<Decision> {
  for (const l of ls) {
    if (l.deny && hasAddress(l.deny, ip)) return FORBIDDEN;
    if (l.allow && !hasAddress(l.allow, ip)) return FORBIDDEN;
    const { allowCountries: ac, denyCountries: dc, allowAsns: aa, denyAsns: da } = l.ir;
    if (ac || dc) {
      const c = s.geo.country(ip);
      if ((dc && c && dc.includes(c)) || (ac && !(c && ac.includes(c)))) return FORBIDDEN;
    }
    if (aa || da) {
      const a = s.geo.asn(ip);
      if ((da && a !== undefined && da.includes(a)) || (aa && !(a !== undefined && aa.includes(a)))) return FORBIDDEN;
    }
  }
  if (!spend) return OK;
  const now = s.now();
  for (const l of ls) {
    const r = l.ir.rateLimit;
    if (!r) continue;
    // Requests without the header are counted by address, so leaving it out does not escape the limit.
    const h = r.by.startsWith('header:') ? header(r.by.slice(7)) : undefined;
    const v = await s.limiter.hit(l.scope, h ? `h:${h}` : `ip:${ip}`, r.requests, r.perMs, now);
    if (!v.ok) return { ok: false, status: 429, message: `rate limit exceeded: ${r.requests} requests per ${r.perMs / 1000} s`, retryAfterSec: v.retryAfterSec };
  }
  return OK;
}
