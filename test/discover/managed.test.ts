// discover in managed mode (SERVICE__MANAGED_MODE=1): docker only on the socket the operator names
// (SERVICE__DISCOVER_DOCKER_SOCKET), kubernetes only in the allowed namespaces
// (SERVICE__DISCOVER_KUBERNETES_NAMESPACES, default the pod's own); a refusal is a 403 naming the
// setting, with nothing sent to the backend. The same settings narrow a self-hosted service. Both paths.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { members, names, RETRY_TWICE } from './run.ts';
import { container, dockerApi, kubernetesApi, pod } from './servers.ts';

const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.managed-token';
const SETTINGS = ['SERVICE__MANAGED_MODE', 'SERVICE__DISCOVER_DOCKER_SOCKET', 'SERVICE__DISCOVER_KUBERNETES_NAMESPACES',
  'SERVICE__KUBERNETES_API_URL', 'SERVICE__KUBERNETES_TOKEN_FILE', 'SERVICE__KUBERNETES_NAMESPACE_FILE', 'SERVICE__KUBERNETES_CA_FILE'];
let docker: Awaited<ReturnType<typeof dockerApi>>;
let api: Awaited<ReturnType<typeof kubernetesApi>>;
const sa = mkdtempSync(join(tmpdir(), 'pw-sa-managed-'));

beforeAll(async () => {
  docker = await dockerApi([container({ name: 'web-1', image: 'nginx:1.27', labels: { app: 'web' }, networks: { bridge: { ip: '172.17.0.2' } }, ports: [80] })]);
  api = await kubernetesApi(TOKEN, [
    pod({ name: 'api-a', ip: '10.244.1.7', namespace: 'shop', labels: { app: 'api' } }),
    pod({ name: 'api-b', ip: '10.244.9.7', namespace: 'team-b', labels: { app: 'api' } }),
  ]);
  writeFileSync(join(sa, 'token'), TOKEN);
  writeFileSync(join(sa, 'namespace'), 'shop\n');
});
const base = () => Object.assign(process.env, {
  SERVICE__KUBERNETES_API_URL: api.url,
  SERVICE__KUBERNETES_TOKEN_FILE: join(sa, 'token'),
  SERVICE__KUBERNETES_NAMESPACE_FILE: join(sa, 'namespace'),
  SERVICE__KUBERNETES_CA_FILE: join(sa, 'ca.crt'),
});
afterEach(() => { for (const k of SETTINGS) delete process.env[k]; });
afterAll(async () => { await docker.close(); await api.close(); });

/** A discovery that must be refused: 403, the reason in the detail, nothing asked of the backend, and no
 *  second attempt (a refusal is never retried, whatever the action kind). */
async function refused(discover: string, requests: () => string[]) {
  const before = requests().length;
  const r = await members(discover, { extra: RETRY_TWICE });
  expect(r.status).toBe(403);
  expect(r.body.error.message).toMatch(/^action "Members" refused: discover: /);
  expect(r.attempts).toBe(1);
  expect(requests().length).toBe(before);
  return r.body.error.detail as string;
}

describe('discover: docker in managed mode', () => {
  const on = (socket: string) => `{ docker: { socket: ${JSON.stringify(socket)} }, cache_ttl_secs: 0 }`;
  it('is refused without SERVICE__DISCOVER_DOCKER_SOCKET, whatever socket the config names', async () => {
    process.env.SERVICE__MANAGED_MODE = '1';
    expect(await refused(on(docker.socket), () => docker.requests)).toBe('discover: docker discovery is turned off in managed mode (SERVICE__MANAGED_MODE); the operator allows one socket with SERVICE__DISCOVER_DOCKER_SOCKET');
    expect(await refused('{ docker: {}, cache_ttl_secs: 0 }', () => docker.requests)).toMatch(/turned off in managed mode/);
  });
  it('uses the allowed socket when the config names none or the same one; another socket is refused', async () => {
    Object.assign(process.env, { SERVICE__MANAGED_MODE: 'true', SERVICE__DISCOVER_DOCKER_SOCKET: docker.socket });
    expect(await names('{ docker: { labels: { app: web } }, cache_ttl_secs: 0 }')).toEqual(['web-1']);
    expect(await names(on(docker.socket))).toEqual(['web-1']);
    expect(await refused(on('/run/containerd/containerd.sock'), () => docker.requests))
      .toBe('discover: docker.socket /run/containerd/containerd.sock is not the socket SERVICE__DISCOVER_DOCKER_SOCKET allows; leave socket unset to use it');
  });
  it('self-hosted: any socket without the setting; only the named one with it', async () => {
    expect(await names(on(docker.socket))).toEqual(['web-1']);
    process.env.SERVICE__DISCOVER_DOCKER_SOCKET = docker.socket;
    expect(await refused(on(`${docker.socket}.other`), () => docker.requests)).toMatch(/is not the socket SERVICE__DISCOVER_DOCKER_SOCKET allows/);
  });
});

describe('discover: kubernetes in managed mode', () => {
  const ns = (n?: string) => `{ kubernetes: { ${n ? `namespace: ${n}, ` : ''}label_selector: app=api }, cache_ttl_secs: 0 }`;
  it('lists only the pod\'s own namespace by default', async () => {
    base();
    process.env.SERVICE__MANAGED_MODE = '1';
    expect(await names(ns())).toEqual(['api-a']);
    expect(await names(ns('shop'))).toEqual(['api-a']);
    expect(await refused(ns('team-b'), () => api.requests))
      .toBe('discover: kubernetes namespace "team-b" is not allowed by managed mode (SERVICE__MANAGED_MODE) without SERVICE__DISCOVER_KUBERNETES_NAMESPACES: only the pod\'s own (allowed: shop)');
  });
  it('lists the namespaces SERVICE__DISCOVER_KUBERNETES_NAMESPACES names, and no other', async () => {
    base();
    Object.assign(process.env, { SERVICE__MANAGED_MODE: '1', SERVICE__DISCOVER_KUBERNETES_NAMESPACES: 'team-b, team-c' });
    expect(await names(ns('team-b'))).toEqual(['api-b']);
    expect(await refused(ns(), () => api.requests)).toBe('discover: kubernetes namespace "shop" is not allowed by SERVICE__DISCOVER_KUBERNETES_NAMESPACES (allowed: team-b, team-c)');
  });
  it('self-hosted: any namespace without the setting; the setting narrows it', async () => {
    base();
    expect(await names(ns('team-b'))).toEqual(['api-b']);
    process.env.SERVICE__DISCOVER_KUBERNETES_NAMESPACES = 'shop';
    expect(await refused(ns('team-b'), () => api.requests)).toMatch(/not allowed by SERVICE__DISCOVER_KUBERNETES_NAMESPACES \(allowed: shop\)/);
  });
});
