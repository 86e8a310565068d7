// What the operator lets a config discover. A hosted service (SERVICE__MANAGED_MODE) runs configs it
// did not write: a config must not pick any local unix socket (the Docker socket is root on the host)
// nor list pods of other tenants' namespaces. Self-hosted, the same settings narrow when they are set.
import { resolve } from 'node:path';
import { DiscoverError } from './error.ts';
import type { DiscoverSettings } from './settings.ts';

export const DEFAULT_SOCKET = '/var/run/docker.sock';

/** The Docker socket to use: the config's, else SERVICE__DISCOVER_DOCKER_SOCKET, else the default. */
export function dockerSocket(asked: string | undefined, s: DiscoverSettings): string {
  if (s.managed && !s.dockerSocket) throw new DiscoverError('docker discovery is turned off in managed mode (SERVICE__MANAGED_MODE); the operator allows one socket with SERVICE__DISCOVER_DOCKER_SOCKET', 'refused');
  if (!s.dockerSocket) return asked ?? DEFAULT_SOCKET;
  if (asked !== undefined && resolve(asked) !== resolve(s.dockerSocket)) {
    throw new DiscoverError(`docker.socket ${asked} is not the socket SERVICE__DISCOVER_DOCKER_SOCKET allows; leave socket unset to use it`, 'refused');
  }
  return s.dockerSocket;
}

/** A namespace is listed only when SERVICE__DISCOVER_KUBERNETES_NAMESPACES names it; in managed mode
 *  without that setting, only the pod's own namespace. */
export function checkNamespace(namespace: string, own: string, s: DiscoverSettings): void {
  const allowed = s.kubernetesNamespaces ?? (s.managed ? [own] : undefined);
  if (!allowed || allowed.includes(namespace)) return;
  const setting = s.kubernetesNamespaces ? 'SERVICE__DISCOVER_KUBERNETES_NAMESPACES' : 'managed mode (SERVICE__MANAGED_MODE) without SERVICE__DISCOVER_KUBERNETES_NAMESPACES: only the pod\'s own';
  throw new DiscoverError(`kubernetes namespace "${namespace}" is not allowed by ${setting} (allowed: ${allowed.join(', ')})`, 'refused');
}
