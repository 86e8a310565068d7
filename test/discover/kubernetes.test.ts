// discover with the kubernetes backend against a local HTTP server speaking the Kubernetes API (pod
// lists as the API serves them, bearer token checked), pointed at by SERVICE__KUBERNETES_API_URL and
// a service-account folder of the test's own; in both paths: selectors, ready_only, port_name, the
// namespace default, filters on image and namespace, caching with its expiry, and failures.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../runtime/services.ts';
import { clearDiscoverCache } from '../../runtime/actions/discover/cache.ts';
import { members, names, RETRY_TWICE } from './run.ts';
import { kubernetesApi, pod } from './servers.ts';
import { makeCerts, opensslMissing } from '../http-action/certs.ts';

const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.service-account-token';
let api: Awaited<ReturnType<typeof kubernetesApi>>;
const sa = mkdtempSync(join(tmpdir(), 'pw-sa-'));

beforeAll(async () => {
  api = await kubernetesApi(TOKEN, [
    pod({ name: 'api-7d9f-b', ip: '10.244.1.8', labels: { app: 'api', track: 'stable' }, node: 'node-b' }),
    pod({ name: 'api-7d9f-a', ip: '10.244.1.7', labels: { app: 'api', track: 'stable' } }),
    pod({ name: 'api-7d9f-c', ip: '10.244.1.9', labels: { app: 'api', track: 'stable' }, ready: false }),
    pod({ name: 'api-7d9f-d', ip: '10.244.1.10', labels: { app: 'api', track: 'stable' }, terminating: true }),
    pod({ name: 'api-7d9f-e', labels: { app: 'api', track: 'stable' }, phase: 'Pending', ready: false }),
    pod({ name: 'api-canary', ip: '10.244.2.1', labels: { app: 'api', track: 'canary' }, containers: [
      { name: 'app', image: 'registry.local/api:2.0-rc1', ports: [{ name: 'metrics', containerPort: 9100 }, { name: 'http', containerPort: 8081 }] },
    ] }),
    pod({ name: 'web-1', ip: '10.244.3.1', labels: { app: 'web' }, containers: [{ name: 'web', image: 'nginx:1.27' }] }),
    pod({ name: 'api-0', ip: 'fd00:10:244::5', namespace: 'team-b', labels: { app: 'api' } }),
  ]);
  writeFileSync(join(sa, 'token'), `${TOKEN}\n`);
  writeFileSync(join(sa, 'namespace'), 'shop');
  Object.assign(process.env, {
    SERVICE__KUBERNETES_API_URL: api.url,
    SERVICE__KUBERNETES_TOKEN_FILE: join(sa, 'token'),
    SERVICE__KUBERNETES_NAMESPACE_FILE: join(sa, 'namespace'),
    SERVICE__KUBERNETES_CA_FILE: join(sa, 'ca.crt'),
  });
});
afterAll(async () => {
  for (const k of ['API_URL', 'TOKEN_FILE', 'NAMESPACE_FILE', 'CA_FILE']) delete process.env[`SERVICE__KUBERNETES_${k}`];
  await api.close();
});


describe('discover: kubernetes', () => {
  it('lists the ready pods of its own namespace matching the label selector, in the one item shape', async () => {
    const r = await members('{ kubernetes: { label_selector: "app=api,track=stable" }, cache_ttl_secs: 0 }');
    expect(r.status).toBe(200);
    expect(r.body.Members).toEqual([
      { name: 'api-7d9f-a', address: '10.244.1.7', port: 8080, url: 'http://10.244.1.7:8080', source: 'kubernetes', ready: true, namespace: 'shop', node: 'node-a', image: 'registry.local/api:1.2', labels: { app: 'api', track: 'stable' } },
      { name: 'api-7d9f-b', address: '10.244.1.8', port: 8080, url: 'http://10.244.1.8:8080', source: 'kubernetes', ready: true, namespace: 'shop', node: 'node-b', image: 'registry.local/api:1.2', labels: { app: 'api', track: 'stable' } },
    ]);
    const last = new URL(api.requests.at(-1)!, 'http://x');
    expect(last.pathname).toBe('/api/v1/namespaces/shop/pods');
    expect(last.searchParams.get('labelSelector')).toBe('app=api,track=stable');
  });

  it('ready_only: false keeps not-ready and terminating pods (ready: false); a pod without an address is never a member', async () => {
    const r = await members('{ kubernetes: { label_selector: "track=stable", ready_only: false }, cache_ttl_secs: 0 }');
    expect(r.body.Members.map((m: any) => [m.name, m.ready])).toEqual([['api-7d9f-a', true], ['api-7d9f-b', true], ['api-7d9f-c', false], ['api-7d9f-d', false]]);
  });

  it('field_selector goes to the API server; port_name picks the named port, and a pod without it is not a member', async () => {
    expect(await names('{ kubernetes: { label_selector: app=api, field_selector: spec.nodeName=node-b }, cache_ttl_secs: 0 }')).toEqual(['api-7d9f-b']);
    const r = await members('{ kubernetes: { label_selector: app, port_name: http }, cache_ttl_secs: 0 }');
    expect(r.body.Members.map((m: any) => `${m.name} ${m.port}`)).toEqual(['api-7d9f-a 8080', 'api-7d9f-b 8080', 'api-canary 8081']);
    expect(await names('{ kubernetes: { port_name: metrics }, cache_ttl_secs: 0 }')).toEqual(['api-canary']);
  });

  it('the action\'s port without port_name; a named namespace; IPv6 pod addresses bracketed', async () => {
    const r = await members('{ kubernetes: { namespace: team-b }, port: 3000, cache_ttl_secs: 0 }');
    expect(r.body.Members).toEqual([
      { name: 'api-0', address: 'fd00:10:244::5', port: 3000, url: 'http://[fd00:10:244::5]:3000', source: 'kubernetes', ready: true, namespace: 'team-b', node: 'node-a', image: 'registry.local/api:1.2', labels: { app: 'api' } },
    ]);
  });

  it('include/exclude on image and namespace', async () => {
    expect(await names('{ kubernetes: { label_selector: app=api }, include: { image: ":2\\\\." }, cache_ttl_secs: 0 }')).toEqual(['api-canary']);
    expect(await names('{ kubernetes: {}, exclude: { image: "^nginx:", name: web }, cache_ttl_secs: 0 }')).toEqual(['api-7d9f-a', 'api-7d9f-b', 'api-canary']);
    expect(await names('{ kubernetes: { namespace: team-b }, include: { namespace: "^team-" }, cache_ttl_secs: 0 }')).toEqual(['api-0']);
  });

  it('caches per resolved config until cache_ttl_secs pass (the run\'s clock)', async () => {
    clearDiscoverCache();
    let now = 1_000_000;
    const clock = { now: () => now, sleep: systemClock.sleep };
    const count = () => api.requests.filter((u) => u.includes('labelSelector=app%3Dweb')).length;
    const before = count();
    const d = '{ kubernetes: { label_selector: app=web }, cache_ttl_secs: 30 }';
    expect((await members(d, { services: { clock } })).body.Members.map((m: any) => m.name)).toEqual(['web-1']);
    expect(count() - before).toBe(1); // the second path was answered from the cache
    now += 29_000;
    await members(d, { services: { clock } });
    expect(count() - before).toBe(1);
    now += 2_000;
    await members(d, { services: { clock } });
    expect(count() - before).toBe(2);
  });

  it('a wrong token: the API server\'s answer in a clear error naming the action, retried', async () => {
    writeFileSync(join(sa, 'token'), 'not-the-token');
    try {
      const r = await members('{ kubernetes: { label_selector: app=api }, cache_ttl_secs: 0 }', { extra: '        retry: { attempts: 3, delay: 0, jitter: none }' });
      expect(r.status).toBe(502);
      expect(r.body.error).toMatchObject({ message: 'action "Members" failed', action: 'Members', detail: `discover: kubernetes API ${api.url} answered 401: Unauthorized` });
      expect(r.attempts).toBe(3);
    } finally {
      writeFileSync(join(sa, 'token'), TOKEN);
    }
  });

  it('an unreachable API server: a clear error naming the action, retried; outside a cluster, what to set', async () => {
    process.env.SERVICE__KUBERNETES_API_URL = 'http://127.0.0.1:1';
    try {
      const r = await members('{ kubernetes: {}, cache_ttl_secs: 0 }', { extra: RETRY_TWICE });
      expect(r.status).toBe(502);
      expect(r.body.error.detail).toMatch(/^discover: kubernetes API http:\/\/127\.0\.0\.1:1: .*ECONNREFUSED/);
      expect(r.attempts).toBe(2);
      delete process.env.SERVICE__KUBERNETES_API_URL;
      const outside = await members('{ kubernetes: {}, cache_ttl_secs: 0 }');
      expect(outside.status).toBe(500);
      expect(outside.body.error.detail).toBe('discover: kubernetes: not running in a cluster (KUBERNETES_SERVICE_HOST is unset); set SERVICE__KUBERNETES_API_URL to reach an API server');
    } finally {
      process.env.SERVICE__KUBERNETES_API_URL = api.url;
    }
  });

  it('an API server that does not answer is abandoned when the action\'s timeout passes (504)', async () => {
    const hung = createServer(() => {});
    await new Promise<void>((r) => hung.listen(0, '127.0.0.1', r));
    process.env.SERVICE__KUBERNETES_API_URL = `http://127.0.0.1:${(hung.address() as { port: number }).port}`;
    try {
      const r = await members('{ kubernetes: {}, cache_ttl_secs: 0 }', { extra: '        timeout: 300' });
      expect(r.status).toBe(504);
      expect(r.body.error).toMatchObject({ message: 'action "Members" failed', action: 'Members' });
    } finally {
      process.env.SERVICE__KUBERNETES_API_URL = api.url;
      hung.closeAllConnections();
      await new Promise((r) => hung.close(r));
    }
  });

  it.skipIf(opensslMissing)('https with the service account\'s CA file; another CA is refused', async () => {
    const certs = makeCerts();
    const tls = await kubernetesApi(TOKEN, [pod({ name: 'secure-1', ip: '10.9.0.1', labels: { app: 'secure' } })], { key: certs.key, cert: certs.cert });
    process.env.SERVICE__KUBERNETES_API_URL = tls.url;
    try {
      writeFileSync(join(sa, 'ca.crt'), certs.caPem);
      expect(await names('{ kubernetes: { label_selector: app=secure }, cache_ttl_secs: 0 }')).toEqual(['secure-1']);
      writeFileSync(join(sa, 'ca.crt'), certs.otherCaPem);
      const r = await members('{ kubernetes: { label_selector: app=secure }, cache_ttl_secs: 0 }');
      expect(r.status).toBe(502);
      expect(r.body.error.detail).toMatch(/^discover: kubernetes API https:\/\/127\.0\.0\.1:\d+: .*certificate/i);
    } finally {
      process.env.SERVICE__KUBERNETES_API_URL = api.url;
      await tls.close();
    }
  });
});
