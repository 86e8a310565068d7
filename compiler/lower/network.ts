// NetworkPolicy → NetworkIR: address lists parsed now so a bad CIDR is a check-time error with its
// position, and the rate-limit window turned into milliseconds.
import type { NetworkIR } from '../../runtime/config-ir.ts';
import { ipList } from '../../runtime/network/ip-list.ts';
import { durationMs } from '../../runtime/values/duration.ts';
import { LowerError } from './error.ts';

type Obj = Record<string, unknown>;
type Path = Array<string | number>;

export function lowerNetwork(n: unknown, at: Path): NetworkIR | undefined {
  if (n === undefined || n === null) return undefined;
  const o = n as Obj;
  if (at.length === 1 && o.inherit !== undefined) throw new LowerError('inherit belongs to an interface\'s network (it drops this config-wide policy there)', [...at, 'inherit']);
  const out: NetworkIR = { inherit: o.inherit !== false };
  for (const [field, key] of [['allow_ips', 'allowIps'], ['deny_ips', 'denyIps']] as const) {
    const list = o[field] as string[] | undefined;
    if (!list) continue;
    list.forEach((e, i) => {
      const parsed = (() => { try { return ipList([e], field); } catch (err) { throw new LowerError((err as Error).message, [...at, field, i], 'write an IP address or a CIDR such as 203.0.113.0/24'); } })();
      if (parsed.hosts.length) throw new LowerError(`${field}: ${JSON.stringify(e)} is a host name; client addresses are matched by IP or CIDR`, [...at, field, i]);
    });
    out[key] = list;
  }
  for (const [field, key] of [['allow_countries', 'allowCountries'], ['deny_countries', 'denyCountries'], ['allow_asns', 'allowAsns'], ['deny_asns', 'denyAsns']] as const) {
    if (Array.isArray(o[field])) (out as unknown as Record<string, unknown>)[key] = o[field];
  }
  const r = o.rate_limit as Obj | undefined;
  if (r) {
    let perMs = 0;
    try { perMs = durationMs(r.per); } catch (e) { throw new LowerError((e as Error).message, [...at, 'rate_limit', 'per']); }
    if (!(perMs >= 1000)) throw new LowerError('rate_limit.per must be at least 1s', [...at, 'rate_limit', 'per']);
    out.rateLimit = { requests: Number(r.requests), perMs, by: typeof r.by === 'string' ? r.by : 'ip' };
  }
  return out;
}
