// kubernetes backend: the pods of a namespace from the API server (GET /api/v1/namespaces/<ns>/pods
// with labelSelector and fieldSelector), with the in-cluster service-account credentials: the bearer
// token and CA from the service-account folder (both re-read per discovery: tokens are rotated),
// the namespace defaulting to the pod's own. Pods give every field of the member shape.
import { readFile } from 'node:fs/promises';
import { flagOn } from '../targets.ts';
import { checkNamespace } from './allowed.ts';
import { getJson } from './api.ts';
import { DiscoverError } from './error.ts';
import type { Found } from './member.ts';
import type { DiscoverSettings } from './settings.ts';
import type { TraceHeaders } from '../../tracing.ts';

/** Pods read per discovery (one page); more is an error asking for a narrower selector. */
export const MAX_PODS = 5000;

interface Pod {
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string>; deletionTimestamp?: string };
  spec?: { nodeName?: string; containers?: Array<{ image?: string; ports?: Array<{ name?: string; containerPort?: number; protocol?: string }> }> };
  status?: { podIP?: string; conditions?: Array<{ type?: string; status?: string }> };
}

export async function kubernetesMembers(v: unknown, port: number | undefined, s: DiscoverSettings, signal?: AbortSignal, trace?: TraceHeaders): Promise<Found[]> {
  const o = (v ?? {}) as Record<string, unknown>;
  for (const f of ['namespace', 'label_selector', 'field_selector', 'port_name']) {
    if (o[f] !== undefined && o[f] !== null && typeof o[f] !== 'string') throw new DiscoverError(`kubernetes.${f} must be text`, 'config');
  }
  if (!s.kubernetesUrl) throw new DiscoverError('kubernetes: not running in a cluster (KUBERNETES_SERVICE_HOST is unset); set SERVICE__KUBERNETES_API_URL to reach an API server', 'config');
  const own = (await optionalFile(s.kubernetesNamespaceFile))?.trim() || 'default';
  const namespace = (o.namespace as string | undefined) || own;
  checkNamespace(namespace, own, s);
  const token = (await optionalFile(s.kubernetesTokenFile))?.trim();
  const ca = await optionalFile(s.kubernetesCaFile);
  const api = new URL(s.kubernetesUrl);
  const query = new URLSearchParams({ limit: String(MAX_PODS) });
  if (o.label_selector) query.set('labelSelector', o.label_selector as string);
  if (o.field_selector) query.set('fieldSelector', o.field_selector as string);
  const path = `${api.pathname.replace(/\/+$/, '')}/api/v1/namespaces/${encodeURIComponent(namespace)}/pods?${query}`;
  const list = (await getJson({
    what: `kubernetes API ${api.origin}`,
    origin: api.origin,
    setting: 'SERVICE__KUBERNETES_API_URL',
    path,
    headers: { ...trace, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(ca && api.protocol === 'https:' ? { ca } : {}),
    ...(signal ? { signal } : {}),
  })) as { items?: Pod[]; metadata?: { continue?: string } };
  if (!Array.isArray(list?.items)) throw new DiscoverError(`kubernetes API ${api.origin} answered without a pod list`, 'backend');
  if (list.metadata?.continue) throw new DiscoverError(`kubernetes: more than ${MAX_PODS} pods match in namespace "${namespace}"; narrow label_selector or field_selector`, 'config');
  const readyOnly = flagOn(o.ready_only, true);
  const portName = o.port_name as string | undefined;
  const out: Found[] = [];
  for (const pod of list.items) {
    const m = fromPod(pod, portName, port);
    if (m && (!readyOnly || m.ready)) out.push(m);
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** A pod without an address yet, or without the named port, is not a member. */
function fromPod(pod: Pod, portName: string | undefined, port: number | undefined): Found | undefined {
  const address = pod.status?.podIP;
  const name = pod.metadata?.name;
  if (!address || !name) return undefined;
  const containers = pod.spec?.containers ?? [];
  const ports = containers.flatMap((c) => c.ports ?? []).filter((p) => typeof p.containerPort === 'number');
  // The named port when asked; else the action's port; else the first one the pod declares.
  const p = portName !== undefined ? ports.find((x) => x.name === portName)?.containerPort : (port ?? ports[0]?.containerPort);
  if (portName !== undefined && p === undefined) return undefined;
  const ready = !pod.metadata?.deletionTimestamp && (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
  const image = containers[0]?.image;
  return {
    name,
    address,
    ...(p !== undefined ? { port: p } : {}),
    source: 'kubernetes',
    ready,
    ...(pod.metadata?.namespace ? { namespace: pod.metadata.namespace } : {}),
    ...(pod.spec?.nodeName ? { node: pod.spec.nodeName } : {}),
    ...(image ? { image } : {}),
    labels: { ...(pod.metadata?.labels ?? {}) },
  };
}

async function optionalFile(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}
