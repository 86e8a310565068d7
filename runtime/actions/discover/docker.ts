// docker backend: running containers from the Docker Engine API on its unix socket
// (GET /containers/json, filtered by label and status on the daemon's side and checked again here).
// The address is the container's on the chosen network, or on the first attached one (networks in
// the API's order) when none is chosen; a container that is not on the chosen network, or whose
// health check reports unhealthy or still starting, is not a member.
import { dockerSocket } from './allowed.ts';
import { getJson } from './api.ts';
import { DiscoverError } from './error.ts';
import type { Found } from './member.ts';
import type { DiscoverSettings } from './settings.ts';
import type { TraceHeaders } from '../../tracing.ts';

interface Container {
  Id?: string;
  Names?: string[];
  Image?: string;
  Labels?: Record<string, string>;
  State?: string;
  Status?: string;
  Health?: { Status?: string };
  Ports?: Array<{ PrivatePort?: number; Type?: string }>;
  NetworkSettings?: { Networks?: Record<string, { IPAddress?: string; GlobalIPv6Address?: string }> };
}

export async function dockerMembers(v: unknown, port: number | undefined, s: DiscoverSettings, signal?: AbortSignal, trace?: TraceHeaders): Promise<Found[]> {
  const o = (v ?? {}) as { labels?: unknown; network?: unknown; socket?: unknown };
  const labels = o.labels ?? {};
  if (typeof labels !== 'object' || Array.isArray(labels) || Object.values(labels as object).some((x) => typeof x !== 'string')) {
    throw new DiscoverError('docker.labels must be a mapping of label to text', 'config');
  }
  const wanted = Object.entries(labels as Record<string, string>);
  const network = o.network === undefined || o.network === null || o.network === '' ? undefined : String(o.network);
  const socket = dockerSocket(typeof o.socket === 'string' && o.socket ? o.socket : undefined, s);
  const filters = JSON.stringify({ status: ['running'], ...(wanted.length ? { label: wanted.map(([k, x]) => `${k}=${x}`) } : {}) });
  const list = await getJson({
    what: `docker API on ${socket}`,
    origin: 'http://localhost',
    path: `/containers/json?filters=${encodeURIComponent(filters)}`,
    socketPath: socket,
    ...(trace ? { headers: { ...trace } } : {}),
    ...(signal ? { signal } : {}),
  });
  if (!Array.isArray(list)) throw new DiscoverError(`docker API on ${socket} answered without a container list`, 'backend');
  const out: Found[] = [];
  for (const c of list as Container[]) {
    if (!wanted.every(([k, x]) => c.Labels?.[k] === x)) continue;
    const m = fromContainer(c, network, port);
    if (m?.ready) out.push(m);
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

function fromContainer(c: Container, network: string | undefined, port: number | undefined): Found | undefined {
  const networks = c.NetworkSettings?.Networks ?? {};
  const net = network !== undefined ? networks[network] : Object.values(networks)[0];
  const address = net?.IPAddress || net?.GlobalIPv6Address;
  if (!address) return undefined;
  const name = c.Names?.[0]?.replace(/^\//, '') || c.Id?.slice(0, 12);
  if (!name) return undefined;
  // The action's port; else the lowest TCP port the container exposes.
  const exposed = (c.Ports ?? []).filter((p) => typeof p.PrivatePort === 'number' && (p.Type ?? 'tcp') === 'tcp').map((p) => p.PrivatePort!).sort((a, b) => a - b);
  const p = port ?? exposed[0];
  const health = c.Health?.Status ?? /\((unhealthy|health: starting)\)/.exec(c.Status ?? '')?.[1];
  const ready = c.State === 'running' && health !== 'unhealthy' && health !== 'starting' && health !== 'health: starting';
  return {
    name,
    address,
    ...(p !== undefined ? { port: p } : {}),
    source: 'docker',
    ready,
    ...(c.Image ? { image: c.Image } : {}),
    labels: { ...(c.Labels ?? {}) },
  };
}
