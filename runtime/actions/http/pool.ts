// Keep-alive dispatchers reused by every run in the process, one per (origin, connect timeout,
// proxy, TLS options): those are per-connection settings, so two configs that differ in any of them
// must not share sockets (a connection verified with accept_invalid_certs must never serve a config
// that verifies). Kept here rather than in Services so the HTTP kind owns its lifecycle.
import { Pool, ProxyAgent, type Dispatcher } from 'undici';
import { tlsKey, type TlsOptions } from './tls.ts';
import { guardedLookup } from '../../network/dialer.ts';

export interface TransportOptions {
  /** undefined means undici's default (10 s). */
  connectTimeoutMs?: number;
  /** Forward proxy URL (http: or https:), credentials allowed as userinfo. */
  proxy?: string;
  tls?: TlsOptions;
}

const pools = new Map<string, Dispatcher>();

export function getDispatcher(origin: string, o: TransportOptions = {}): Dispatcher {
  // The common case (no per-connection settings) is keyed by the origin alone: no hashing per
  // request. Otherwise a JSON list (never equal to an origin), the TLS options by their settings'
  // digest, made once per setting (a CA list can be the whole root store).
  const plain = o.connectTimeoutMs === undefined && o.proxy === undefined && o.tls === undefined;
  const key = plain ? origin : JSON.stringify([origin, o.connectTimeoutMs ?? null, o.proxy ?? null, o.tls ? tlsKey(o.tls) : null]);
  let d = pools.get(key) as (Dispatcher & { closed?: boolean; destroyed?: boolean }) | undefined;
  if (!d || d.closed || d.destroyed) {
    if (!d && pools.size >= MAX_POOLS) retireOldest();
    d = create(origin, o);
    pools.set(key, d);
  }
  return d;
}

/** Dispatchers kept: origins can come from requests (`url: a|body::u|`), and each one kept is a
 *  Pool with its idle sockets. Past this, the oldest is closed gracefully (its requests under way
 *  finish; a later request to its origin makes a new one). */
export const MAX_POOLS = 1000;

function retireOldest(): void {
  const [key, oldest] = pools.entries().next().value!;
  pools.delete(key);
  void oldest.close().catch(() => undefined);
}

/** How many dispatchers are kept (tests). */
export const openHttpPools = (): number => pools.size;

function create(origin: string, o: TransportOptions): Dispatcher {
  const timeout = o.connectTimeoutMs === undefined ? {} : { timeout: o.connectTimeoutMs };
  // Every connection resolves through the outbound policy (the dialer, runtime/network/dialer.ts).
  if (!o.proxy) return new Pool(origin, { connect: { ...timeout, ...o.tls, lookup: guardedLookup } });
  // One ProxyAgent per key: it keeps a pool per origin inside. Plain-http targets are sent to the
  // proxy in absolute form (proxyTunnel: false), as curl and browsers do; https targets tunnel
  // through CONNECT and the TLS options apply to the upstream, not to the proxy.
  return new ProxyAgent({ uri: o.proxy, proxyTunnel: false, proxyTls: { ...timeout, lookup: guardedLookup }, requestTls: { ...timeout, ...o.tls } });
}

/**
 * Close every dispatcher and forget them; for shutdown and tests. In-flight requests get `graceMs`
 * to finish, then sockets are destroyed: a request abandoned while its connect hangs stays queued
 * until the connect timeout, and shutdown should not wait for that.
 */
export async function closeHttpPools(graceMs = 1000): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.allSettled(all.map(async (p) => {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'expired'>((r) => { timer = setTimeout(() => r('expired'), graceMs); });
    const result = await Promise.race([p.close().then(() => 'closed' as const), expired]);
    clearTimeout(timer);
    if (result === 'expired') await p.destroy();
  }));
}
