// Where the discover backends are, from the environment (read per discovery, so a changed setting
// takes effect at once and is part of the cache key). Defaults are Kubernetes' in-cluster ones.
import { managedMode } from '../../values/managed-mode.ts';
import { hostInUrl } from './member.ts';

const SA_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

export interface DiscoverSettings {
  /** SERVICE__DNS_SERVERS: `ip` or `ip:port` entries; unset = the system's resolvers. */
  dnsServers?: string[];
  /** SERVICE__KUBERNETES_API_URL, else https://KUBERNETES_SERVICE_HOST:KUBERNETES_SERVICE_PORT. */
  kubernetesUrl?: string;
  kubernetesTokenFile: string;
  kubernetesCaFile: string;
  kubernetesNamespaceFile: string;
  /** SERVICE__MANAGED_MODE: docker needs dockerSocket; kubernetes keeps to the allowed namespaces. */
  managed: boolean;
  /** SERVICE__DISCOVER_DOCKER_SOCKET: the one Docker socket discovery may use (then also the default). */
  dockerSocket?: string;
  /** SERVICE__DISCOVER_KUBERNETES_NAMESPACES: the namespaces discovery may list (managed default: the pod's own). */
  kubernetesNamespaces?: string[];
}

export function discoverSettings(env: NodeJS.ProcessEnv = process.env): DiscoverSettings {
  const dns = (env.SERVICE__DNS_SERVERS ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const host = env.KUBERNETES_SERVICE_HOST;
  const inCluster = host ? `https://${hostInUrl(host)}:${env.KUBERNETES_SERVICE_PORT || '443'}` : undefined;
  const url = env.SERVICE__KUBERNETES_API_URL || inCluster;
  const namespaces = (env.SERVICE__DISCOVER_KUBERNETES_NAMESPACES ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return {
    ...(dns.length ? { dnsServers: dns } : {}),
    ...(url ? { kubernetesUrl: url.replace(/\/+$/, '') } : {}),
    kubernetesTokenFile: env.SERVICE__KUBERNETES_TOKEN_FILE || `${SA_DIR}/token`,
    kubernetesCaFile: env.SERVICE__KUBERNETES_CA_FILE || `${SA_DIR}/ca.crt`,
    kubernetesNamespaceFile: env.SERVICE__KUBERNETES_NAMESPACE_FILE || `${SA_DIR}/namespace`,
    managed: managedMode(env.SERVICE__MANAGED_MODE),
    ...(env.SERVICE__DISCOVER_DOCKER_SOCKET ? { dockerSocket: env.SERVICE__DISCOVER_DOCKER_SOCKET } : {}),
    ...(namespaces.length ? { kubernetesNamespaces: namespaces } : {}),
  };
}
