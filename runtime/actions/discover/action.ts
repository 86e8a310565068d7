// `discover` action (spec: Discover): live members of a service from DNS, the Kubernetes API, the
// Docker Engine or a static list, every backend set in the action adding its members, filtered by
// include/exclude and returned in one item shape. Answers are cached per resolved config.
import { isUrlScheme } from '../../values/port.ts';
import type { ActionKind } from '../types.ts';
import type { TraceHeaders } from '../../tracing.ts';
import { flagOn } from '../targets.ts';
import { cached } from './cache.ts';
import { dnsMembers } from './dns.ts';
import { dockerMembers } from './docker.ts';
import { DiscoverError, failed } from './error.ts';
import { memberFilter } from './filter.ts';
import { kubernetesMembers } from './kubernetes.ts';
import { member, type Found, type Member } from './member.ts';
import { portOf } from './port.ts';
import { discoverSettings, type DiscoverSettings } from './settings.ts';
import { staticMembers } from './static.ts';

/** Members one discovery may return; more is an error asking for a narrower query or filter. */
export const MAX_MEMBERS = 1000;
const DEFAULT_TTL_SECS = 10;
const MAX_TTL_SECS = 86_400;
const BACKENDS = ['dns', 'kubernetes', 'docker', 'static'] as const;

export const discover: ActionKind = async (config, ctx) => {
  try {
    const c = (config ?? {}) as Record<string, unknown>;
    const set = BACKENDS.filter((b) => c[b] !== undefined && c[b] !== null);
    if (!set.length) throw new DiscoverError(`set one of ${BACKENDS.join(', ')}`, 'config');
    const scheme = schemeOf(c.scheme);
    const port = portOf(c.port, 'port');
    const ttl = ttlOf(c.cache_ttl_secs);
    const keep = memberFilter(c.include, c.exclude);
    const failWhenEmpty = flagOn(c.fail_when_empty);
    const settings = discoverSettings();
    const key = JSON.stringify([c, settings]);
    const load = async (): Promise<Member[]> => {
      const found = (await Promise.all(set.map((b) => backend(b, c[b], port, settings, ctx.signal, ctx.trace)))).flat().filter(keep);
      if (found.length > MAX_MEMBERS) throw new DiscoverError(`${found.length} members found, more than the limit of ${MAX_MEMBERS}; narrow the query or add an include filter`, 'config');
      return found.map((f) => member(f, scheme));
    };
    // With fail_when_empty an empty answer is not kept: a retry asks the backend again.
    const members = await cached(key, ttl * 1000, () => ctx.services.clock.now(), load, (m) => m.length > 0 || !failWhenEmpty);
    if (!members.length && failWhenEmpty) throw new DiscoverError(`no members found (${set.join(', ')}) and fail_when_empty is set`, 'config');
    return { ok: true, data: structuredClone(members) };
  } catch (e) {
    return failed(e);
  }
};

/** `trace`: the attempt's context, sent on the HTTP APIs' calls (tracing on). */
function backend(b: (typeof BACKENDS)[number], v: unknown, port: number | undefined, s: DiscoverSettings, signal?: AbortSignal, trace?: TraceHeaders): Promise<Found[]> | Found[] {
  if (b === 'dns') return dnsMembers(v, port, s.dnsServers, signal);
  if (b === 'kubernetes') return kubernetesMembers(v, port, s, signal, trace);
  if (b === 'docker') return dockerMembers(v, port, s, signal, trace);
  return staticMembers(v, port);
}

function schemeOf(v: unknown): string {
  if (v === undefined || v === null) return 'http';
  if (!isUrlScheme(v)) throw new DiscoverError(`scheme ${JSON.stringify(v)} is not a URL scheme (such as http, https, grpc)`, 'config');
  return v.toLowerCase();
}

function ttlOf(v: unknown): number {
  if (v === undefined || v === null) return DEFAULT_TTL_SECS;
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0 || n > MAX_TTL_SECS) throw new DiscoverError(`cache_ttl_secs ${JSON.stringify(v)} must be a number of seconds from 0 to ${MAX_TTL_SECS}`, 'config');
  return n;
}
